import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { followConfirmationLink, submitSignupAndConfirm } from "./support/accounts.ts";

/** A fresh address per run: the e2e database lives as long as the server. */
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

function toast(page: Page, title: string) {
  return page.locator("[data-sonner-toast]").filter({ hasText: title });
}

/** Forms switch to their own validation once hydrated (the form gets `novalidate`). */
async function hydrated(page: Page) {
  await expect(page.locator("main form")).toHaveAttribute("novalidate", "");
}

test("sign up, dashboard, log out, guarded dashboard, log in again", async ({ page }) => {
  const email = uniqueEmail("journey");
  const password = "correct horse battery";

  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
  await page.getByRole("link", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await hydrated(page);

  // the spec's empty-field message, and a clear one for a short password
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(toast(page, "Please fill in all fields")).toContainText("Error");
  await page.getByLabel("Name").fill("Ada Lovelace");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(toast(page, "at least 8 characters")).toContainText("Error");

  await page.getByLabel("Password").fill(password);
  // the busy label while the account is created (inputs disabled)
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route("**/signup.data*", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByRole("button", { name: "Creating account..." })).toBeDisabled();
  await expect(page.getByLabel("Email")).toBeDisabled();
  release();

  // the same answer whether or not the address has an account; the mailed link signs in
  await expect(toast(page, "Check your email")).toContainText(email);
  await followConfirmationLink(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByText("Welcome, Ada Lovelace")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Free User" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" })).toBeVisible();

  // the session cookie: httpOnly and SameSite=Lax
  const cookie = (await page.context().cookies()).find((c) => c.name === "vidfetch.session_token");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });

  await page.getByRole("button", { name: "Logout" }).click();
  await expect(toast(page, "Logged Out")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Log in" })).toBeVisible();

  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login\?returnTo=%2Fdashboard&notice=auth-required$/);
  await expect(toast(page, "Authentication Required")).toBeVisible();
  await hydrated(page);

  // same answer for a wrong password as for an unknown email
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(toast(page, "Invalid email or password")).toContainText("Error");

  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Welcome, Ada Lovelace")).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("signup, logout and login work as plain form posts", async ({ page }) => {
    const email = uniqueEmail("nojs");
    await page.goto("/signup");
    await submitSignupAndConfirm(page, { name: "Grace Hopper", email, password: "compiler-pioneer" });
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText("Welcome, Grace Hopper")).toBeVisible();

    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login\?notice=logged-out$/);
    await expect(page.getByRole("status")).toContainText("Logged Out");

    // a failed login comes back inline with the email kept
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(page.getByRole("alert")).toContainText("Invalid email or password");
    await expect(page.getByLabel("Email")).toHaveValue(email);

    await page.getByLabel("Password").fill("compiler-pioneer");
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText("Welcome, Grace Hopper")).toBeVisible();
  });
});

test("a cross-site form post to /login is refused", async ({ request }) => {
  const res = await request.post("/login", {
    form: { email: "a@example.com", password: "whatever-123", returnTo: "/dashboard" },
    headers: { origin: "https://evil.example" },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(403);
});

test("better-auth's raw endpoints are closed; its session endpoint answers", async ({ request }) => {
  for (const path of ["/api/auth/sign-in/email", "/api/auth/sign-up/email", "/api/auth/update-user", "/api/auth/request-password-reset"]) {
    const res = await request.post(path, { data: { email: "a@example.com", password: "whatever-123" } });
    expect(res.status(), path).toBe(404);
  }
  const session = await request.get("/api/auth/get-session");
  expect(session.status()).toBe(200);
});

test("forgot password: reached from the login page, the same confirmation for any email", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot Password" })).toBeVisible();
  await hydrated(page);
  await page.getByLabel("Email").fill(uniqueEmail("nobody"));
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(toast(page, "Check your email")).toContainText("If an account exists for that email");
});

test("a reset link with a bad token says so and changes nothing", async ({ page }) => {
  await page.goto("/reset-password?token=not-a-real-token");
  await hydrated(page);
  await page.getByLabel("New password").fill("a-brand-new-password");
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(toast(page, "invalid or has expired")).toBeVisible();
});

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target.join(" ")) }));
}

test("the account pages have no serious accessibility problems", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  for (const path of ["/login", "/signup", "/forgot-password", "/reset-password?token=x"]) {
    await page.goto(path);
    await hydrated(page);
    expect(await seriousViolations(page), path).toEqual([]);
  }
  await page.goto("/signup");
  await hydrated(page);
  await submitSignupAndConfirm(page, { name: "Axe Tester", email: uniqueEmail("axe"), password: "accessible-password" });
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  expect(await seriousViolations(page), "/dashboard").toEqual([]);
});
