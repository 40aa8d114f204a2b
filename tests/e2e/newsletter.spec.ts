import { expect, test } from "@playwright/test";
import { mailboxFor, mailText } from "../support/smtp-sink.ts";

/**
 * The newsletter's double opt-in in the browser (decision 044): the box asks to check the inbox,
 * the mailed confirm link opens a page whose button confirms, and the mail's unsubscribe link
 * (text and List-Unsubscribe header) opens a page whose button unsubscribes. The e2e server
 * mails over SMTP into E2E_MAILBOX_DIR (scripts/e2e-server.mjs).
 */
const mailbox = process.env.E2E_MAILBOX_DIR!;
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function confirmationMail(to: string): Promise<{ confirm: string; unsubscribe: string }> {
  let raw = "";
  await expect.poll(() => (raw = mailboxFor(mailbox, to)[0] ?? ""), { timeout: 15_000 }).not.toBe("");
  const head = raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, " ");
  expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
  const unsubscribe = /^List-Unsubscribe: <([^>]+)>$/m.exec(head)?.[1] ?? "";
  const confirm = /http:\/\/\S+\/newsletter\/confirm\?token=\S+/.exec(mailText(raw))?.[0] ?? "";
  expect(unsubscribe).toContain("/newsletter/unsubscribe?token=");
  expect(confirm).not.toBe("");
  return { confirm, unsubscribe };
}

test("subscribe in the box, confirm from the mail, unsubscribe from the mail", async ({ page }) => {
  const email = uniqueEmail("reader");
  await page.goto("/blog");
  const box = page.getByRole("region", { name: "Stay Updated" });
  await box.getByLabel("Email address").fill(email);
  await box.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByTestId("newsletter-status")).toContainText("check your inbox");
  const links = await confirmationMail(email);

  const opened = await page.goto(links.confirm);
  expect(opened?.headers()).toMatchObject({ "cache-control": "private, no-store", "referrer-policy": "strict-origin" });
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(page.getByRole("heading", { name: "Confirm your subscription" })).toBeVisible();
  await expect(page.getByTestId("newsletter-link-state")).toContainText(email);
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByRole("heading", { name: "Subscription confirmed" })).toBeVisible();

  await page.goto(links.unsubscribe);
  await expect(page.getByRole("heading", { name: "Unsubscribe from the newsletter" })).toBeVisible();
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();
  await page.goto(links.unsubscribe);
  await expect(page.getByRole("heading", { name: "This address is not on our list" })).toBeVisible();
});

test("a mail provider's one-click POST unsubscribes, without a cookie, a form token or an Origin", async ({ page, request }) => {
  const email = uniqueEmail("one-click");
  const res = await request.post("/newsletter", { data: { email, website: "" } });
  expect(res.status()).toBe(200);
  const links = await confirmationMail(email);
  const oneClick = await request.post(links.unsubscribe, { form: { "List-Unsubscribe": "One-Click" } });
  expect(oneClick.status()).toBe(200);
  await page.goto(links.confirm);
  await expect(page.getByRole("heading", { name: "This address is not on our list" })).toBeVisible();
});
