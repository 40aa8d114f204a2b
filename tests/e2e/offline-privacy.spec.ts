/**
 * Issue 27 §11: the service worker never keeps what was rendered for a signed-in visitor, and
 * every way of signing out drops what it kept. Real Chromium with this build's worker.
 */
import { expect, test, type Page } from "@playwright/test";
import { submitSignupAndConfirm } from "./support/accounts.ts";

test.use({ serviceWorkers: "allow" });

const PASSWORD = "offline privacy 27 correct horse";
const NAME = "Offline Privacy";

async function controlledByWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller?.state === "activated", null, { timeout: 30_000 });
}

async function hydrated(page: Page) {
  await expect(page.locator("main form")).toHaveAttribute("novalidate", "");
}

/** Every entry of every cache of this origin whose URL or body mentions `text`. */
function entriesHolding(page: Page, text: string): Promise<string[]> {
  return page.evaluate(async (needle) => {
    const found: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const req of await cache.keys()) {
        const res = await cache.match(req);
        const body = res ? await res.clone().text() : "";
        if (req.url.includes(needle) || body.includes(needle)) found.push(`${name} ${req.url}`);
      }
    }
    return found;
  }, text);
}

/** What an older build (or server) may have left behind: a kept page holding the account. */
async function plantPersonalCopy(page: Page, email: string): Promise<void> {
  await page.evaluate(async (mail) => {
    const cache = await caches.open("vidfetch-pages");
    await cache.put("/__planted-by-test", new Response(`<p>${mail}</p>`, { headers: { "content-type": "text/html" } }));
  }, email);
  expect(await entriesHolding(page, email)).toHaveLength(1);
}

async function logIn(page: Page, email: string): Promise<void> {
  await page.goto("/login");
  await hydrated(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Full page loads and client navigations (route data through the worker) while signed in. */
async function browseSignedIn(page: Page): Promise<void> {
  for (const path of ["/faq", "/about-us", "/"]) {
    await page.goto(path);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" })).toBeVisible();
  }
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const name of ["FAQ", "How to Download"]) {
    const data = page.waitForResponse((res) => new URL(res.url()).pathname.endsWith(".data"));
    await nav.getByRole("link", { name, exact: true }).click();
    await data;
  }
  await expect(nav.getByRole("link", { name: "Dashboard" })).toBeVisible();
}

test("nothing kept holds the signed-in visitor, and every sign-out drops what was kept", async ({ page, context }) => {
  test.setTimeout(120_000);
  const email = `offline-privacy-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

  await page.goto("/");
  await controlledByWorker(page);

  await page.goto("/signup");
  await hydrated(page);
  await submitSignupAndConfirm(page, { name: NAME, email, password: PASSWORD });
  await expect(page).toHaveURL(/\/dashboard$/);

  await browseSignedIn(page);
  // the worker kept anonymous pages only: personal answers are private, no-store
  expect(await entriesHolding(page, email)).toEqual([]);
  expect(await entriesHolding(page, NAME)).toEqual([]);

  // 1. the Logout button (React Router posts /logout.data)
  await page.goto("/dashboard");
  await plantPersonalCopy(page, email);
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Logged Out" })).toBeVisible();
  await expect.poll(() => entriesHolding(page, email)).toEqual([]);

  // 2. a script calling the auth library's sign-out
  await logIn(page, email);
  await browseSignedIn(page);
  await plantPersonalCopy(page, email);
  const signOut = await page.evaluate(async () => (await fetch("/api/auth/sign-out", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status);
  expect(signOut).toBe(200);
  await expect.poll(() => entriesHolding(page, email)).toEqual([]);

  // 3. a session that ends without a logout (expired, revoked): the next navigation shows it
  await logIn(page, email);
  await page.goto("/faq");
  await plantPersonalCopy(page, email);
  await context.clearCookies();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Supported Sites", exact: true }).click();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Log in" })).toBeVisible();
  await expect.poll(() => entriesHolding(page, email)).toEqual([]);
});
