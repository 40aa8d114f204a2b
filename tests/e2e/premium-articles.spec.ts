import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signUp, subscribe } from "./support/plans.ts";

/**
 * Premium articles (issue 31 §4): the introduction and an upgrade prompt for visitors, free and
 * Basic members, whose page never carries the rest; the whole text for Pro and Ultimate.
 */
const ARTICLE = "/blog/video-resolutions-bitrates-explained";
/** from the introduction */
const INTRO_SENTENCE = "sounds like a precise promise of quality";
/** from the part after the introduction */
const LATER_SENTENCE = "Raw video is enormous.";
const PROMPT_TEXT = "The rest of this article is for Pro and Ultimate members.";

/** The page as the server sends it to this browser (its cookies), and as the browser holds it. */
async function htmlSentTo(page: Page): Promise<string[]> {
  const sent = await page.request.get(ARTICLE);
  expect(sent.status()).toBe(200);
  return [await sent.text(), await page.content()];
}

test("a visitor gets the introduction and the prompt; the page sent lacks the rest and says it is paywalled", async ({ page }) => {
  const res = await page.goto(ARTICLE);
  const body = page.getByTestId("article-body");
  await expect(body).toContainText(INTRO_SENTENCE);
  await expect(page.getByText(LATER_SENTENCE)).toHaveCount(0);
  const prompt = page.getByTestId("premium-prompt");
  await expect(prompt).toContainText(PROMPT_TEXT);
  await expect(prompt.getByRole("link", { name: "See the plans" })).toHaveAttribute("href", "/premium");
  await expect(prompt.getByRole("link", { name: "Log in" })).toHaveAttribute("href", `/login?returnTo=${encodeURIComponent(ARTICLE)}`);
  await expect(page.locator("article header").getByText("Premium", { exact: true })).toBeVisible();

  // twice: the second answer may come from the page cache, and must be the same introduction
  for (const html of [...(await htmlSentTo(page)), ...(await htmlSentTo(page))]) {
    expect(html).toContain(INTRO_SENTENCE);
    expect(html).not.toContain(LATER_SENTENCE);
  }
  expect(res?.headers()["cache-control"]).toMatch(/^public/);

  const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
  const posting = jsonLd.map((t) => JSON.parse(t) as Record<string, unknown>).find((o) => o["@type"] === "BlogPosting");
  expect(posting).toMatchObject({ isAccessibleForFree: false, hasPart: { "@type": "WebPageElement", isAccessibleForFree: false, cssSelector: ".premium-content" } });
  await expect(page.locator(".premium-content")).toHaveCount(1);

  const violations = (await new AxeBuilder({ page }).include('[data-testid="premium-prompt"]').analyze()).violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(violations.map((v) => v.id)).toEqual([]);
});

test("the blog list labels premium articles", async ({ page }) => {
  await page.goto("/blog");
  const item = page.getByTestId("guide-item").filter({ has: page.locator(`a[href="${ARTICLE}"]`) });
  await expect(item.getByTestId("premium-badge")).toHaveText("Premium");
  const free = page.getByTestId("guide-item").filter({ has: page.locator('a[href="/blog/how-to-download-youtube-videos-safely"]') });
  await expect(free.getByTestId("premium-badge")).toHaveCount(0);
  const violations = (await new AxeBuilder({ page }).include('[data-testid="guide-list"]').withRules(["color-contrast"]).analyze()).violations;
  expect(violations.map((v) => v.id)).toEqual([]);
});

test("a free member gets the introduction and the prompt, without the rest in the page", async ({ page }) => {
  await signUp(page, "Free Reader", "premium-articles");
  await page.goto(ARTICLE);
  await expect(page.getByTestId("article-body")).toContainText(INTRO_SENTENCE);
  const prompt = page.getByTestId("premium-prompt");
  await expect(prompt).toContainText(PROMPT_TEXT);
  await expect(prompt.getByRole("link", { name: "See the plans" })).toBeVisible();
  // signed in already: no "Log in"
  await expect(prompt.getByRole("link", { name: "Log in" })).toHaveCount(0);
  for (const html of await htmlSentTo(page)) {
    expect(html).toContain(INTRO_SENTENCE);
    expect(html).not.toContain(LATER_SENTENCE);
  }
});

test("a Pro member reads the whole article, without a prompt, in a page kept by nobody", async ({ page }) => {
  await signUp(page, "Pro Reader", "premium-articles");
  await subscribe(page, "Pro");
  const res = await page.goto(ARTICLE);
  expect(res?.headers()["cache-control"]).toBe("private, no-store");
  await expect(page.getByTestId("article-body")).toContainText(INTRO_SENTENCE);
  await expect(page.getByTestId("premium-content")).toContainText(LATER_SENTENCE);
  await expect(page.getByTestId("premium-prompt")).toHaveCount(0);
  for (const html of await htmlSentTo(page)) expect(html).toContain(LATER_SENTENCE);
});
