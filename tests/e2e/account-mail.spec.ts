import { expect, test, type Page } from "@playwright/test";
import { mailboxFor, mailText } from "../support/smtp-sink.ts";
import { submitSignupAndConfirm } from "./support/accounts.ts";

/**
 * Mail journeys over real SMTP: the e2e server sends through a local SMTP server that files
 * each message in E2E_MAILBOX_DIR (scripts/e2e-server.mjs); the test follows the mailed link.
 */
const mailbox = process.env.E2E_MAILBOX_DIR!;
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function linkFromMail(to: string, pattern: RegExp, count: number): Promise<string> {
  let link = "";
  await expect
    .poll(
      () => {
        const mails = mailboxFor(mailbox, to);
        if (mails.length < count) return "";
        link = pattern.exec(mailText(mails[count - 1]!))?.[0] ?? "";
        return link;
      },
      { timeout: 15_000 },
    )
    .not.toBe("");
  return link;
}

async function signUp(page: Page, email: string, password: string) {
  await page.goto("/signup");
  await expect(page.locator("main form")).toHaveAttribute("novalidate", "");
  await submitSignupAndConfirm(page, { name: "Grace Hopper", email, password });
  await expect(page).toHaveURL(/\/dashboard/);
}

test("forgot password: the mailed link sets a new password, the old one stops working", async ({ page }) => {
  test.skip(!mailbox, "E2E_MAILBOX_DIR is set by playwright.config.ts");
  const email = uniqueEmail("reset");
  await signUp(page, email, "first password 1");
  // the verification mail arrives over SMTP too
  const verify = await linkFromMail(email, /http:\/\/[^\s]+verify-email[^\s]+/, 1);
  expect(verify).toContain("token=");
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login/);

  await page.goto("/forgot-password");
  await expect(page.locator("main form")).toHaveAttribute("novalidate", "");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText("If an account exists for that email").first()).toBeVisible();

  const link = await linkFromMail(email, /http:\/\/[^\s]+\/reset-password\?token=[^\s]+/, 2);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Reset Password" })).toBeVisible();
  await expect(page.locator("main form")).toHaveAttribute("novalidate", "");
  await page.getByLabel("New password").fill("second password 2");
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText("Password Updated").first()).toBeVisible();

  await expect(page.locator("main form")).toHaveAttribute("novalidate", "");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("first password 1");
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page.getByText("Invalid email or password").first()).toBeVisible();
  await page.getByLabel("Password").fill("second password 2");
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL(/\/dashboard/);

  // the link was used: a second use is refused
  await page.goto(link);
  await expect(page.locator("main form")).toHaveAttribute("novalidate", "");
  await page.getByLabel("New password").fill("third password 3");
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(page.getByText("invalid or has expired").first()).toBeVisible();
});
