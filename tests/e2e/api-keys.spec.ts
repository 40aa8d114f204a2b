import { writeFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIResponse, type Page } from "@playwright/test";
import { SAMPLE, ffprobe } from "./home-helpers.ts";
import { signUp, subscribe } from "./support/plans.ts";

/**
 * Issue 31 §1 in the browser, on the embedded defaults (MOCKS=true, the fake Stripe): an
 * Ultimate user makes a key in the dashboard's API tab, calls the API with it from a client with
 * no cookies (a 4K file their plan has, the rate limit's headers), sees its use counted, and
 * revokes it; a key cannot make keys; the white label's sender name is saved, and a ZIP asked
 * for with a key is not named after the site; a free account is told which plan has API access.
 */

async function openApiTab(page: Page) {
  await page.getByRole("tablist", { name: "Dashboard sections" }).getByRole("tab", { name: "API" }).click();
  await expect(page).toHaveURL(/tab=api/);
}

/** A same-origin API call with the session cookie, as the page's own fetch would make it. */
function postApi(page: Page, apiPath: string, data: unknown) {
  return page.request.post(apiPath, { data, headers: { origin: new URL(page.url()).origin, "sec-fetch-site": "same-origin" } });
}

async function errorCode(res: APIResponse): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

test("an Ultimate user creates a key, downloads 2160p with it from another client, sees it counted, and revokes it", async ({ page, playwright, baseURL }, testInfo) => {
  test.setTimeout(150_000);
  await signUp(page, "Margaret Hamilton", "api");
  await subscribe(page, "Ultimate");
  await openApiTab(page);
  await expect(page.getByText("You have 0 of 10 keys.")).toBeVisible();
  // the example names this site
  await expect(page.locator("pre code")).toContainText(`${baseURL}/api/v1/resolve`);

  // the create's answer is the only place the key is, and it is not stored by any cache
  const answer = page.waitForResponse((res) => res.request().method() === "POST" && new URL(res.url()).pathname.startsWith("/dashboard"));
  await page.getByLabel("Key name").fill("Build server");
  await page.getByRole("button", { name: "Create key" }).click();
  expect((await answer).headers()["cache-control"]).toContain("no-store");
  await expect(page.getByRole("status").filter({ hasText: "Copy this key now: it will not be shown again." })).toBeVisible();
  const keyField = page.getByLabel("API key Build server");
  const key = await keyField.inputValue();
  expect(key).toMatch(/^vf_[A-Za-z0-9_-]{20,}$/);
  expect(page.url()).not.toContain(key);
  await expect(page.getByText("You have 1 of 10 keys.")).toBeVisible();
  const row = page.getByTestId("api-key-row").filter({ hasText: "Build server" });
  await expect(row).toContainText(`${key.slice(0, 11)}…`);
  await expect(row).toContainText("Never");
  await expect(page.getByRole("button", { name: "Copy" })).toBeVisible();

  // the tab with a key just shown has no serious accessibility problems and fits a phone
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target.join(" ")) }));
    expect(serious, `API tab at ${width}px`).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // another client: no cookies, only the key
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${key}` } });
  try {
    const resolved = await api.post("/api/v1/resolve", { data: { url: SAMPLE.all } });
    expect(resolved.status()).toBe(200);
    expect(resolved.headers()["ratelimit-limit"]).toBe("60");
    const video = (await resolved.json()) as { formats: Array<{ id: string; allowed?: boolean }> };
    expect(video.formats.find((f) => f.id === "mp4-2160")).toMatchObject({ allowed: true });

    const created = await api.post("/api/v1/downloads", { data: { url: SAMPLE.all, format: "mp4-2160" } });
    expect(created.status()).toBe(200);
    const { downloadUrl } = (await created.json()) as { downloadUrl: string };
    const file = await api.get(downloadUrl);
    expect(file.status()).toBe(200);
    const saved = testInfo.outputPath("api-2160.mp4");
    writeFileSync(saved, await file.body());
    expect(ffprobe(saved).streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 2160 });

    // a key cannot make keys (nor list them)
    const keyMakesKey = await api.post("/api/v1/keys", { data: { name: "Another" } });
    expect(keyMakesKey.status()).toBe(403);
    expect(await errorCode(keyMakesKey)).toBe("key.session_only");

    // after a reload: listed with its use, and the key itself is nowhere in the page
    await expect(async () => {
      await page.reload();
      await expect(row.getByTestId("api-key-requests")).not.toHaveText(/^[01]$/, { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    expect(Number(await row.getByTestId("api-key-requests").textContent())).toBeGreaterThanOrEqual(2);
    await expect(row).not.toContainText("Never");
    await expect(row).toContainText(`${key.slice(0, 11)}…`);
    await expect(keyField).toHaveCount(0);
    expect(await page.content()).not.toContain(key);

    await row.getByRole("button", { name: "Revoke key Build server" }).click();
    await expect(page.getByText("You have 0 of 10 keys.")).toBeVisible();
    await expect(page.getByTestId("api-key-row")).toHaveCount(0);

    const refused = await api.post("/api/v1/resolve", { data: { url: SAMPLE.all } });
    expect(refused.status()).toBe(401);
    expect(await errorCode(refused)).toBe("key.invalid");
  } finally {
    await api.dispose();
  }
});

test("without JavaScript, the API tab creates a key, shows it once, and revokes it", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signUp(page, "Mary Jackson", "api-nojs");
  await subscribe(page, "Ultimate");
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  try {
    const plain = await context.newPage();
    await plain.goto("/dashboard?tab=api");
    await plain.getByLabel("Key name").fill("Laptop");
    await plain.getByRole("button", { name: "Create key" }).click();
    await expect(plain.getByRole("status").filter({ hasText: "Copy this key now: it will not be shown again." })).toBeVisible();
    const key = await plain.getByLabel("API key Laptop").inputValue();
    expect(key).toMatch(/^vf_/);
    // nothing to press without JavaScript: the key is selected and copied by hand
    await expect(plain.getByRole("button", { name: "Copy" })).toHaveCount(0);
    await expect(plain.getByText("You have 1 of 10 keys.")).toBeVisible();

    // the white label: a sender name for the mails of jobs made with a key, and a ZIP asked for
    // with the key carries no site name
    await plain.getByLabel("Sender name").fill("Acme Media");
    await plain.getByRole("button", { name: "Save sender name" }).click();
    await expect(plain.getByRole("status").filter({ hasText: "Mails about jobs made with your API keys are now sent as Acme Media." })).toBeVisible();
    await plain.goto("/dashboard?tab=api");
    await expect(plain.getByLabel("Sender name")).toHaveValue("Acme Media");
    const zip = await page.request.post("/api/v1/downloads", { headers: { authorization: `Bearer ${key}` }, data: { urls: [SAMPLE.all, SAMPLE.upTo720], format: "mp3-128" } });
    expect(zip.status()).toBe(200);
    expect(((await zip.json()) as { filename: string }).filename).toMatch(/^Bulk \d{4}-\d{2}-\d{2}\.zip$/);

    await plain.getByRole("button", { name: "Revoke key Laptop" }).click();
    await expect(plain.getByText("The key was revoked: requests made with it are refused from now on.")).toBeVisible();
    await expect(plain.getByText("You have 0 of 10 keys.")).toBeVisible();
    expect(await plain.content()).not.toContain(key);
  } finally {
    await context.close();
  }
});

test("a free user's API tab says which plan has API access, with no form; their session cannot make a key", async ({ page }) => {
  await signUp(page, "Dorothy Vaughan", "api-free");
  await openApiTab(page);
  await expect(page.getByText("API access comes with the Ultimate plan. Subscribe to use it.")).toBeVisible();
  await expect(page.getByRole("link", { name: "See the plans" })).toHaveAttribute("href", "/premium");
  await expect(page.getByLabel("Key name")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Create key" })).toHaveCount(0);

  const refused = await postApi(page, "/api/v1/keys", { name: "Mine" });
  expect(refused.status()).toBe(403);
  const body = (await refused.json()) as { error: { code: string; message: string } };
  expect(body.error).toMatchObject({ code: "plan.required", message: "API access comes with the Ultimate plan. Subscribe to use it." });
});
