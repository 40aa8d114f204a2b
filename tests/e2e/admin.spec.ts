import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { SAMPLE } from "./home-helpers.ts";
import { submitSignupAndConfirm } from "./support/accounts.ts";
import { e2eDatabaseUrl, queryE2eDatabase, requireE2eDatabase } from "./support/db.ts";
import { signUp as signUpMember, subscribe } from "./support/plans.ts";

/** scripts/e2e-server.mjs sets ADMIN_EMAIL to this unless the environment already did. */
const ADMIN_EMAIL = process.env.ADMIN_EMAIL ?? "admin@example.com";
/** an article no other spec comments on */
const SLUG = "save-audio-offline-listening-podcasts";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

const PASSWORD = "admin e2e password 1";

async function signUp(page: Page, email: string) {
  await page.goto("/signup");
  await expect(page.locator("main form")).toHaveAttribute("novalidate", "");
  await submitSignupAndConfirm(page, { name: email.split("@")[0]!, email, password: PASSWORD });
  await expect(page).toHaveURL(/\/dashboard/);
}

async function logIn(page: Page): Promise<void> {
  await page.goto("/login");
  await page.waitForFunction(() => "__reactRouterContext" in window);
  await page.getByLabel("Email").fill(ADMIN_EMAIL);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log In" }).click();
}

/**
 * The admin signed in on a new page: signed up the first time, logged in when another test (or an earlier try of this
 * one) did that. With the e2e database at hand it is read; without it, a login that does not reach the dashboard means
 * the account is not there yet.
 */
async function adminPage(browser: Browser, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await (await browser.newContext(viewport ? { viewport } : {})).newPage();
  if (e2eDatabaseUrl()) {
    const [known] = await queryE2eDatabase<{ id: string }>("SELECT id FROM users WHERE lower(email) = lower($1)", [ADMIN_EMAIL]);
    if (!known) await signUp(page, ADMIN_EMAIL);
    else {
      await logIn(page);
      await expect(page).toHaveURL(/\/dashboard/);
    }
    return page;
  }
  await logIn(page);
  const loggedIn = await page.waitForURL(/\/dashboard/, { timeout: 5_000 }).then(
    () => true,
    () => false,
  );
  if (!loggedIn) await signUp(page, ADMIN_EMAIL);
  return page;
}

async function expectOrdinary404(page: Page) {
  const res = await page.goto("/admin");
  expect(res?.status()).toBe(404);
  expect(res?.headers()["cache-control"]).toBe("private, no-store");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Oops! Page Not Found");
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(page.getByRole("heading", { name: "Admin" })).toHaveCount(0);
}

test("a visitor and a signed-in member get the ordinary 404 at /admin", async ({ page }) => {
  await expectOrdinary404(page);
  await signUp(page, `member-${Date.now()}@example.com`);
  await expectOrdinary404(page);
});

test("the admin hides a comment a visitor reported, and the article no longer shows it", async ({ browser }) => {
  const text = `Buy followers cheap ${Date.now()}`;

  // a visitor comments, another reports it
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/blog/${SLUG}`);
  // the page cache holds the article as a stranger sees it (no cookies), with the comment once it is posted
  const stranger = await browser.newContext();
  const strangerView = async () => (await stranger.request.get(`/blog/${SLUG}`)).text();
  const form = visitor.getByTestId("comment-form");
  await expect(form).toHaveAttribute("novalidate", "");
  await form.getByLabel("Name *").fill("Spammy Sam");
  await form.getByLabel(/Email \*/).fill("sam@example.com");
  await form.getByLabel("Comment *").fill(text);
  await form.getByTestId("comment-submit").click();
  await expect(toast(visitor, "Comment submitted")).toBeVisible();
  const comment = visitor.getByTestId("comment").filter({ hasText: text });
  await comment.getByTestId("report-button").click();
  await expect(toast(visitor, "Comment reported")).toBeVisible();
  expect(await strangerView()).toContain(text);
  // a resolve, so the admin's platform health table has a row whatever ran before
  expect((await visitor.request.post("/api/v1/resolve", { data: { url: SAMPLE.all } })).status()).toBe(200);

  // the admin, on a phone-sized screen
  const admin = await adminPage(browser, { width: 375, height: 800 });
  const res = await admin.goto("/admin");
  expect(res?.status()).toBe(200);
  expect(res?.headers()["cache-control"]).toBe("private, no-store");
  await expect(admin.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(admin.getByRole("heading", { level: 1, name: "Admin" })).toBeVisible();
  const listed = admin.getByTestId("admin-comment").filter({ hasText: text });
  await expect(listed).toContainText("1 report");
  // nothing wider than the screen
  expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const serious = (await new AxeBuilder({ page: admin }).analyze()).violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
  expect(serious).toEqual([]);
  // the health table (a resolve above gave it a row) is wider than the phone: it scrolls inside a region the keyboard reaches
  const healthTable = admin.getByRole("region", { name: "Platform health table" });
  await expect(healthTable).toHaveAttribute("tabindex", "0");
  expect(await healthTable.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);

  await listed.getByRole("button", { name: /^Hide/ }).click();
  await expect(admin.getByTestId("admin-result")).toHaveText("Comment hidden.");
  await expect(listed).toContainText("Status: hidden");
  await expect(listed.getByRole("button", { name: /^Hide/ })).toHaveCount(0);
  await expect(admin.getByTestId("admin-log")).toContainText(`${ADMIN_EMAIL} · Hid a comment`);

  // gone from the article (this visitor's cookie keeps the page out of any shared copy)
  await visitor.reload();
  await expect(visitor.getByTestId("comments")).toBeVisible();
  await expect(visitor.getByTestId("comment").filter({ hasText: text })).toHaveCount(0);
  await expect(visitor.getByTestId("comments")).not.toContainText(text);
  // and from the page cache's copy at once: a stranger no longer gets the comment
  expect(await strangerView()).not.toContain(text);
});

test("the admin retries a failed scheduled download: it leaves the failed list, runs again and is done", async ({ browser }) => {
  // the failed job is made in the database (a platform outage cannot be staged from outside)
  requireE2eDatabase();
  test.setTimeout(120_000);
  const stamp = Date.now();
  const name = `Retry Owner ${stamp}`;
  const owner = await (await browser.newContext()).newPage();
  await signUpMember(owner, name, "retry");
  await subscribe(owner, "Pro");
  const [user] = await queryE2eDatabase<{ id: string; email: string }>("SELECT id, email FROM users WHERE name = $1", [name]);
  const jobId = `retry-e2e-${stamp}`;
  const error = `The platform did not answer (${stamp}).`;
  await queryE2eDatabase(
    `INSERT INTO download_jobs (id, user_id, kind, format, items, status, run_at, queue_job_id, error, started_at, finished_at)
     VALUES ($1, $2, 'scheduled', 'mp3-128', $3::jsonb, 'failed', now() - interval '1 hour', gen_random_uuid()::text, $4, now() - interval '59 minutes', now() - interval '58 minutes')`,
    [jobId, user!.id, JSON.stringify([{ url: SAMPLE.all, title: null, status: "failed", bytes: null, error }]), error],
  );

  const admin = await adminPage(browser);
  await admin.goto("/admin");
  const failed = admin.getByTestId("admin-failed-job").filter({ hasText: error });
  await expect(failed).toContainText(`scheduled for ${user!.email}`);
  await failed.getByRole("button", { name: /^Retry/ }).click();
  await expect(admin.getByTestId("admin-result")).toHaveText(`The scheduled job for ${user!.email} will run again now.`);
  await expect(failed).toHaveCount(0);
  await expect(admin.getByTestId("admin-log")).toContainText(`${ADMIN_EMAIL} · Retried a failed job: ${jobId}`);

  // the queue runs it through the engine to the end, and its owner's dashboard offers the file
  await expect.poll(async () => (await queryE2eDatabase<{ status: string }>("SELECT status FROM download_jobs WHERE id = $1", [jobId]))[0]?.status, { timeout: 60_000 }).toBe("done");
  await owner.goto("/dashboard");
  await owner.getByRole("tablist", { name: "Dashboard sections" }).getByRole("tab", { name: "Scheduled" }).click();
  await expect(owner.getByTestId("job-row").first()).toContainText("Ready");
  // a second Retry of the same job (a stale page) is refused
  const stale = await admin.context().request.post("/admin", { form: { intent: "retry-job", jobId } });
  expect(stale.status()).toBe(409);
});
