import { expect, test, type Page } from "@playwright/test";
import { queryE2eDatabase } from "./support/db.ts";
import { readBackAvailable } from "./support/read-back.ts";

/** The forms switch to their own validation once hydrated (the form gets `novalidate`). */
async function hydratedForm(page: Page, path: string, heading: string) {
  await page.goto(path);
  const section = page.locator("section").filter({ has: page.getByRole("heading", { name: heading }) });
  const form = section.locator("form");
  await expect(form).toHaveAttribute("novalidate", "");
  return form;
}

function toast(page: Page, title: string) {
  return page.locator("[data-sonner-toast]").filter({ hasText: title });
}

test.describe("contact form", () => {
  test("empty required fields show the spec's message and nothing is sent", async ({ page }) => {
    const form = await hydratedForm(page, "/contact-us", "Send us a message");
    let posted = false;
    page.on("request", (r) => {
      if (r.method() === "POST") posted = true;
    });
    await form.getByRole("button", { name: "Send Message" }).click();
    const t = toast(page, "Error");
    await expect(t).toContainText("Please fill out all required fields");
    await expect(form.getByLabel(/^Name/)).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel(/^Name/)).toBeFocused();
    // subject is optional: not flagged
    await expect(form.getByLabel("Subject")).not.toHaveAttribute("aria-invalid", "true");
    expect(posted).toBe(false);
  });

  test("a malformed email is refused", async ({ page }) => {
    const form = await hydratedForm(page, "/contact-us", "Send us a message");
    await form.getByLabel(/^Name/).fill("Ada");
    await form.getByLabel(/^Email/).fill("ada-at-example");
    await form.getByLabel(/^Message/).fill("Hello");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(toast(page, "Error")).toContainText("Please enter a valid email address");
  });

  test("a mistake's error toast goes once the corrected message is sent, and errors do not stack", async ({ page }) => {
    const form = await hydratedForm(page, "/contact-us", "Send us a message");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(toast(page, "Error")).toContainText("Please fill out all required fields");
    await form.getByLabel(/^Name/).fill("Ada");
    await form.getByLabel(/^Email/).fill("ada-at-example");
    await form.getByLabel(/^Message/).fill("Hello");
    await form.getByRole("button", { name: "Send Message" }).click();
    // the new problem replaces the old one
    await expect(toast(page, "Error")).toHaveCount(1);
    await expect(toast(page, "Error")).toContainText("Please enter a valid email address");
    await form.getByLabel(/^Email/).fill("ada@example.com");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(toast(page, "Message sent")).toBeVisible();
    await expect(toast(page, "Error")).toHaveCount(0);
  });

  test("a complete message is stored, confirmed with the spec's toast, and the form is cleared", async ({ page }) => {
    const form = await hydratedForm(page, "/contact-us", "Send us a message");
    const marker = `e2e-contact-${Date.now()}`;
    await form.getByLabel(/^Name/).fill("Ada Lovelace");
    await form.getByLabel(/^Email/).fill("ada@example.com");
    await form.getByLabel("Subject").fill(marker);
    await form.getByLabel(/^Message/).fill("The transcript download saved my evening.");
    await form.getByRole("button", { name: "Send Message" }).click();
    const t = toast(page, "Message sent");
    await expect(t).toContainText("We've received your message and will respond soon!");
    await expect(form.getByLabel(/^Name/)).toHaveValue("");
    await expect(form.getByLabel("Subject")).toHaveValue("");
    await expect(form.getByLabel(/^Message/)).toHaveValue("");
    await expect(page).toHaveURL(/\/contact-us$/);

    if (!readBackAvailable()) return;
    const rows = await queryE2eDatabase<{ name: string; email: string; message: string; ip_hash: string | null }>(
      "select name, email, message, ip_hash from contact_messages where subject = $1",
      [marker],
    );
    expect(rows).toEqual([{ name: "Ada Lovelace", email: "ada@example.com", message: "The transcript download saved my evening.", ip_hash: expect.stringMatching(/^[0-9a-f]{32}$/) }]);
  });

  test("without JavaScript the form posts normally and the result shows in the page", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/contact-us");
    const marker = `e2e-nojs-${Date.now()}`;
    await page.getByLabel(/^Name/).fill("Grace");
    await page.getByLabel(/^Email/).fill("grace@example.com");
    await page.getByLabel("Subject").fill(marker);
    await page.getByLabel(/^Message/).fill("Works without scripts too.");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Message sent" })).toContainText("We've received your message and will respond soon!");
    await context.close();

    if (!readBackAvailable()) return;
    const rows = await queryE2eDatabase("select 1 from contact_messages where subject = $1", [marker]);
    expect(rows).toHaveLength(1);
  });

  test("using the form raises no Content-Security-Policy violation (no eval in our bundle)", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|unsafe-eval/i.test(m.text())) violations.push(m.text());
    });
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => console.error(`Content Security Policy violation: ${e.violatedDirective}`));
    });
    const form = await hydratedForm(page, "/contact-us", "Send us a message");
    await form.getByLabel(/^Name/).fill("Ada");
    await form.getByLabel(/^Email/).fill("ada-at-example");
    await form.getByLabel(/^Message/).fill("Hello");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(toast(page, "Error")).toBeVisible();
    expect(violations).toEqual([]);
  });

  test("the server validates too: a direct post with empty fields gets the message and keeps the input", async ({ request }) => {
    const res = await request.post("/contact-us", { form: { name: "", email: "x@example.com", subject: "kept", message: "" } });
    expect(res.status()).toBe(400);
    const html = await res.text();
    expect(html).toContain("Please fill out all required fields");
    expect(html).toMatch(/value="kept"/);
  });

  test("a filled honeypot looks like success but stores nothing", async ({ request }) => {
    const marker = `e2e-bot-${Date.now()}`;
    const res = await request.post("/contact-us", {
      form: { name: "Bot", email: "bot@example.com", subject: marker, message: "Cheap followers", website: "https://spam.example" },
    });
    expect(res.status()).toBe(200);
    expect(await res.text()).toContain("Message sent");
    if (!readBackAvailable()) return;
    expect(await queryE2eDatabase("select 1 from contact_messages where subject = $1", [marker])).toHaveLength(0);
  });
});

test.describe("Request Platform Support form", () => {
  test("the platform name is required", async ({ page }) => {
    const form = await hydratedForm(page, "/supported-sites", "Request Platform Support");
    await form.getByRole("button", { name: "Submit Request" }).click();
    await expect(toast(page, "Error")).toContainText("Please enter the name of the platform you would like us to support");
    await expect(form.getByLabel(/^Platform name/)).toHaveAttribute("aria-invalid", "true");
  });

  test("an optional email must be valid when given", async ({ page }) => {
    const form = await hydratedForm(page, "/supported-sites", "Request Platform Support");
    await form.getByLabel(/^Platform name/).fill("Rumble");
    await form.getByLabel("Your email (optional)").fill("me at example");
    await form.getByRole("button", { name: "Submit Request" }).click();
    await expect(toast(page, "Error")).toContainText("Please enter a valid email address");
  });

  test("a request is stored and confirmed, and the form is cleared", async ({ page }) => {
    const form = await hydratedForm(page, "/supported-sites", "Request Platform Support");
    const platform = `E2E Tube ${Date.now()}`;
    await form.getByLabel(/^Platform name/).fill(platform);
    await form.getByLabel("Additional details").fill("Example: https://e2e.example/v/1");
    await form.getByRole("button", { name: "Submit Request" }).click();
    await expect(toast(page, "Request received")).toBeVisible();
    await expect(form.getByLabel(/^Platform name/)).toHaveValue("");

    if (!readBackAvailable()) return;
    const rows = await queryE2eDatabase<{ email: string | null; details: string }>(
      "select email, details from platform_requests where platform_name = $1",
      [platform],
    );
    expect(rows).toEqual([{ email: null, details: "Example: https://e2e.example/v/1" }]);
  });
});
