import { expect, type Page } from "@playwright/test";
import { mailboxFor, mailText } from "../../support/smtp-sink.ts";

/**
 * Signup answers "Check your email" and the mailed link signs the new account in
 * (docs/decisions/038). The e2e server sends mail over SMTP into E2E_MAILBOX_DIR
 * (scripts/e2e-server.mjs); these follow the link as the new user would.
 */
const CONFIRMATION_LINK = /http:\/\/\S+\/api\/auth\/verify-email\?\S+/;

/** Open the confirmation link last mailed to `email`; the page lands where the signup was headed. */
export async function followConfirmationLink(page: Page, email: string): Promise<void> {
  const mailbox = process.env.E2E_MAILBOX_DIR;
  if (!mailbox) throw new Error("E2E_MAILBOX_DIR is set by playwright.config.ts");
  let link = "";
  await expect
    .poll(
      () => {
        const mails = mailboxFor(mailbox, email).map(mailText).filter((m) => CONFIRMATION_LINK.test(m));
        link = CONFIRMATION_LINK.exec(mails.at(-1) ?? "")?.[0] ?? "";
        return link;
      },
      { timeout: 15_000 },
    )
    .not.toBe("");
  await page.goto(link);
}

/** Fill and send the signup form on the current page, see "Check your email", open the link. */
export async function submitSignupAndConfirm(page: Page, account: { name: string; email: string; password: string }): Promise<void> {
  await page.getByLabel("Name").fill(account.name);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("Check your email").first()).toBeVisible();
  await followConfirmationLink(page, account.email);
}
