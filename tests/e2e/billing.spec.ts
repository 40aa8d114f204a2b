import { expect, test, type Page } from "@playwright/test";
import { submitSignupAndConfirm } from "./support/accounts.ts";

/**
 * Plans and payments in the browser, against the built-in fake Stripe (MOCKS=true): its hosted
 * checkout page has "Pay" and "Cancel", and "Pay" sends signed webhooks to our server.
 */
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const password = "correct horse battery";

function toast(page: Page, title: string) {
  return page.locator("[data-sonner-toast]").filter({ hasText: title });
}

async function signUp(page: Page, name: string, email = uniqueEmail("billing")) {
  await page.goto("/signup");
  await expect(page.locator("main form")).toHaveAttribute("novalidate", "");
  await submitSignupAndConfirm(page, { name, email, password });
  await expect(page).toHaveURL(/\/dashboard$/);
  return email;
}

async function premiumHydrated(page: Page) {
  await page.goto("/premium");
  await expect(page.getByRole("heading", { name: "Choose your plan" })).toBeVisible();
  // hydrated: the router's own forms take over the submit
  await page.waitForFunction(() => document.documentElement.querySelector("main") !== null && "__reactRouterContext" in window);
}

test("the plan cards list every right each plan adds as included, and nothing as coming soon once all are built", async ({ page }) => {
  await page.goto("/premium");
  const pro = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Pro", exact: true }) });
  await expect(pro.locator('[data-feature="included"]').filter({ hasText: "4K and 8K downloads" })).toBeVisible();
  // built (issues 30, 31): included
  await expect(pro.locator('[data-feature="included"]')).toHaveText(["Everything in Basic", "4K and 8K downloads", "Subtitles (SRT and VTT)", "Scheduled downloads", "Priority support", "Full premium articles"]);
  const ultimate = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Ultimate", exact: true }) });
  await expect(ultimate.locator('[data-feature="included"]')).toHaveText(["Everything in Pro", "Bulk downloads", "API access", "Custom download profiles", "White-label option", "Commercial usage rights"]);
  // no SUPPORT_ULTIMATE_EMAIL on this server: the account manager line is not shown at all
  await expect(ultimate.getByText("Dedicated account manager")).toHaveCount(0);
  await expect(page.locator('[data-feature="soon"]')).toHaveCount(0);
  await expect(page.getByText("Coming soon", { exact: true })).toHaveCount(0);
});

test("sign up, choose Pro, pay at the fake Stripe Checkout: Payment Successful! and Pro is the current plan", async ({ page }) => {
  await signUp(page, "Grace Hopper");
  await premiumHydrated(page);
  const pro = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Pro" }) });
  await expect(pro.getByText("MOST POPULAR")).toBeVisible();
  await expect(pro.getByText("$9.99")).toBeVisible();
  await expect(page.getByText("Is there a free trial?")).toBeVisible();

  await page.getByRole("button", { name: "Subscribe to Pro" }).click();
  await expect(page.getByRole("heading", { name: "Subscribe to Pro" })).toBeVisible();
  await expect(page.getByText("7 days free, then billed monthly.")).toBeVisible();
  await page.getByRole("button", { name: "Pay" }).click();

  await expect(page).toHaveURL(/\/payment-success\?session_id=cs_test_/);
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  await expect(toast(page, "Welcome to Premium!")).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to Dashboard" })).toBeVisible();

  await page.goto("/premium");
  await expect(page.getByText("Your current plan: Pro")).toBeVisible();
  await expect(page.getByRole("button", { name: "Subscribe to Ultimate" })).toBeDisabled();

  // the dashboard's "Manage Subscription" posts here: Stripe's portal, where the plan is canceled
  const portal = await page.request.post("/billing/portal", { form: {}, maxRedirects: 0 });
  expect(portal.status()).toBe(303);
  await page.goto(portal.headers().location ?? "");
  await expect(page.getByRole("heading", { name: "Manage your subscription" })).toBeVisible();
  await page.getByRole("button", { name: "Cancel plan" }).click();
  await expect(page.getByText(/Cancels on/)).toBeVisible();
  await page.getByRole("link", { name: "Return to VidFetch" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // still Pro until the period ends, and the plans page says so
  await page.goto("/premium");
  await expect(page.getByText(/Your current plan: Pro \(ends on /)).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the subscribe form still leads to Stripe Checkout and back", async ({ page }) => {
    await page.goto("/signup");
    await submitSignupAndConfirm(page, { name: "Edsger Dijkstra", email: uniqueEmail("nojs"), password });
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.goto("/premium");
    await page.getByRole("button", { name: "Subscribe to Basic" }).click();
    await expect(page.getByRole("heading", { name: "Subscribe to Basic" })).toBeVisible();
    await page.getByRole("button", { name: "Pay" }).click();
    await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  });
});

test("Cancel at the fake checkout comes back to the plans and leaves the user free", async ({ page }) => {
  await signUp(page, "Alan Turing");
  await premiumHydrated(page);
  await page.getByRole("button", { name: "Subscribe to Basic" }).click();
  await expect(page.getByRole("heading", { name: "Subscribe to Basic" })).toBeVisible();
  await page.getByRole("button", { name: "Cancel" }).click();

  await expect(page).toHaveURL(/\/premium\?checkout=canceled$/);
  await expect(toast(page, "Checkout Canceled")).toBeVisible();
  await expect(page.getByText("Your current plan")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Subscribe to Basic" })).toBeEnabled();
});

test("a logged-out subscribe asks to log in, then goes on to checkout with the chosen plan", async ({ page }) => {
  const email = await signUp(page, "Katherine Johnson");
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login/);

  await premiumHydrated(page);
  await page.getByRole("button", { name: "Subscribe to Ultimate" }).click();
  await expect(page).toHaveURL(/\/login\?returnTo=/);
  await expect(toast(page, "Login Required")).toContainText("Please log in or create an account to subscribe");

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log In" }).click();
  // back on the plans with Ultimate chosen, and on to Stripe's checkout for it
  await expect(page.getByRole("heading", { name: "Subscribe to Ultimate" })).toBeVisible();
  await expect(page.getByText("$19.99")).toBeVisible();
});

test("/payment-success needs a login, and an unknown session id is an activation error that upgrades nobody", async ({ page }) => {
  await page.goto("/payment-success?session_id=cs_test_forged");
  await expect(page).toHaveURL(/\/login\?returnTo=/);
  await expect(toast(page, "Authentication Required")).toContainText("Please log in to activate your premium features");

  await signUp(page, "Mary Jackson");
  await page.goto("/payment-success?session_id=cs_test_forged");
  await expect(page.getByRole("heading", { name: "Activation Error" })).toBeVisible();
  await expect(page.getByRole("main").getByText("There was an issue verifying your payment. Please try again or contact support.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Contact Support" })).toHaveAttribute("href", "/contact-us");
  await page.goto("/premium");
  await expect(page.getByText("Your current plan")).toHaveCount(0);
});
