import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { INFO_PAGES } from "./support/pages.ts";

// /premium: its orange "Premium" label once read at 3.19:1; /blog: the list and its cards
const PAGES: readonly string[] = [...INFO_PAGES, "/premium", "/blog", "/no-such-page"];

// Axe measures colours as painted: a toast caught while fading in reads as low contrast.
// Reduced motion makes sonner (and app.css) skip their transitions, and `settled` waits out
// whatever still runs, so every check sees the page at rest.
test.beforeEach(async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
});

/** Resolves once no finite animation or transition is running (spinners loop forever and are skipped). */
async function settled(page: Page) {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Infinity),
  );
}

/** The toast with this text, mounted, fully opaque, no longer moving, and held on screen. */
async function toastAtRest(page: Page, text: string): Promise<Locator> {
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: text });
  // a pointer over the toaster pauses sonner's 4 s dismiss timer: the toast stays for the whole check
  await toast.hover();
  await expect(toast).toHaveAttribute("data-mounted", "true");
  await expect(toast).toHaveCSS("opacity", "1");
  await settled(page);
  return toast;
}

async function seriousViolations(page: Page, include?: string) {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 5) }));
}

/**
 * WCAG contrast of a toast's title and description against the toast's own background, with
 * each colour composited the way the browser paints it (a canvas pixel, so any CSS colour
 * syntax and any alpha work): background over the white page, text over that background.
 */
async function toastContrast(toast: Locator): Promise<Array<{ part: string; ratio: number }>> {
  return toast.evaluate((el) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
    const paint = (layers: string[]) => {
      ctx.clearRect(0, 0, 1, 1);
      for (const color of ["#ffffff", ...layers]) {
        ctx.fillStyle = color;
        ctx.fillRect(0, 0, 1, 1);
      }
      return [...ctx.getImageData(0, 0, 1, 1).data].slice(0, 3);
    };
    const luminance = (rgb: number[]) => {
      const [r, g, b] = rgb.map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const background = getComputedStyle(el).backgroundColor;
    const parts = [
      ["title", el.querySelector("[data-title]")],
      ["description", el.querySelector("[data-description]")],
    ] as const;
    return parts
      .filter(([, node]) => node !== null)
      .map(([part, node]) => {
        const bg = luminance(paint([background]));
        const fg = luminance(paint([background, getComputedStyle(node!).color]));
        const ratio = (Math.max(bg, fg) + 0.05) / (Math.min(bg, fg) + 0.05);
        return { part, ratio: Math.round(ratio * 100) / 100 };
      });
  });
}

for (const path of PAGES) {
  test(`${path} has no serious or critical accessibility violations`, async ({ page }) => {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    await settled(page);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test("the FAQ accordion and the contact form stay accessible when used", async ({ page }) => {
  // three axe runs over whole pages: minutes, not seconds, on a busy machine
  test.slow();
  await page.goto("/faq");
  await page.getByRole("button", { name: /free to use/ }).click();
  await settled(page);
  expect(await seriousViolations(page, "main")).toEqual([]);

  await page.goto("/contact-us");
  await expect(page.locator("form[novalidate]")).toHaveCount(1);
  await page.getByRole("button", { name: "Send Message" }).click();
  const error = await toastAtRest(page, "Error");
  expect(await seriousViolations(page)).toEqual([]);
  // one toast at a time: a second one would stack the first behind it, half transparent
  await error.getByRole("button", { name: "Close toast" }).click();
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);

  await page.getByLabel(/^Name/).fill("Axe");
  await page.getByLabel(/^Email/).fill("axe@example.com");
  await page.getByLabel(/^Message/).fill("Checking the success toast.");
  await page.getByRole("button", { name: "Send Message" }).click();
  await toastAtRest(page, "Message sent");
  expect(await seriousViolations(page)).toEqual([]);
});

test("error and success toasts at rest have text contrast of at least 4.5:1", async ({ page }) => {
  await page.goto("/contact-us");
  await expect(page.locator("form[novalidate]")).toHaveCount(1);
  await page.getByRole("button", { name: "Send Message" }).click();
  const error = await toastAtRest(page, "Error");
  await expect(error).toHaveAttribute("data-type", "error");
  const errorContrast = await toastContrast(error);
  expect(errorContrast.map((c) => c.part)).toContain("title");
  for (const c of errorContrast) expect(c.ratio, `error toast ${c.part}`).toBeGreaterThanOrEqual(4.5);
  await error.getByRole("button", { name: "Close toast" }).click();
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);

  await page.getByLabel(/^Name/).fill("Contrast");
  await page.getByLabel(/^Email/).fill("contrast@example.com");
  await page.getByLabel(/^Message/).fill("Checking the success toast colours.");
  await page.getByRole("button", { name: "Send Message" }).click();
  const success = await toastAtRest(page, "Message sent");
  await expect(success).toHaveAttribute("data-type", "success");
  const successContrast = await toastContrast(success);
  expect(successContrast.map((c) => c.part)).toContain("title");
  for (const c of successContrast) expect(c.ratio, `success toast ${c.part}`).toBeGreaterThanOrEqual(4.5);
});
