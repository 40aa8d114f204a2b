/**
 * The Profiles tab (issue 31 §2): what each plan is shown, refusals in place, and the forms
 * through the dashboard route on a test database with better-auth; the home page's offer holds
 * an Ultimate viewer's profiles only.
 */
import pino from "pino";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { action as dashboardAction, loader as dashboardLoader } from "#app/routes/dashboard.tsx";
import { downloaderOfferFor } from "#app/modules/downloader/downloader-offer.server.ts";
import { loadConfig, publicConfig } from "#server/config.ts";
import { cookieHeaderFrom, insertActiveSubscription, testAccounts, TEST_PUBLIC_URL } from "#tests/support/accounts.ts";
import { callRoute, unwrap } from "#tests/support/route-context.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { ProfilesPanel } from "./profiles-panel.tsx";
import type { ProfileFormResult, ProfilesView } from "./dashboard-data.ts";

function render(view: ProfilesView, actionResult?: ProfileFormResult): string {
  const router = createMemoryRouter([{ path: "/", element: <ProfilesPanel view={view} actionResult={actionResult} /> }]);
  return renderToString(<RouterProvider router={router} />);
}

const ultimateView: ProfilesView = {
  canUse: true,
  upgradeText: "",
  profiles: [
    { id: "p1", name: "Archive", format: "mp4-360", formatLabel: "MP4 360p", language: null, filenameTemplate: "{channel} - {title} [{id}]" },
    { id: "p2", name: "German subs", format: "srt", formatLabel: "SRT", language: "de", filenameTemplate: null },
  ],
  maxProfiles: 20,
  formats: [
    { id: "mp4-360", label: "MP4 360p" },
    { id: "mp4-720", label: "MP4 720p" },
    { id: "srt", label: "SRT" },
  ],
};

describe("ProfilesPanel", () => {
  it("renders the New profile form with its fields and hints, and each profile with its own Delete", () => {
    const html = render(ultimateView);
    expect(html).toContain(">New profile</h3>");
    expect(html).toMatch(/<input type="hidden" name="intent" value="create-profile"/);
    expect(html).toMatch(/for="profile-name"[^>]*>Name/);
    expect(html).toMatch(/<input(?=[^>]*name="name")(?=[^>]*maxLength="60")/);
    // the plan's formats, 720p first chosen
    expect(html).toMatch(/<select[^>]*name="format"/);
    expect(html).toMatch(/<option value="mp4-720" selected="">MP4 720p/);
    expect(html).toMatch(/for="profile-language"[^>]*>Subtitle language \(optional\)/);
    expect(html).toContain('placeholder="e.g. de"');
    expect(html).toContain("for SRT, VTT and transcript profiles only");
    expect(html).toMatch(/for="profile-template"[^>]*>File name \(optional\)/);
    expect(html).toContain('placeholder="{channel} - {title} ({date})"');
    expect(html).toContain("Placeholders: <!-- -->{title} {channel} {id} {date} {format} {platform}");
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Save profile/);

    expect(html).toContain("You have <!-- -->2<!-- --> of <!-- -->20<!-- --> profiles.");
    expect(html).toContain("MP4 360p</dd>");
    expect(html).toContain("{channel} - {title} [{id}]</dd>");
    expect(html).toContain(">de</dd>");
    expect(html).toContain('aria-label="Delete profile Archive"');
    expect(html).toContain('aria-label="Delete profile German subs"');
    expect(html).toMatch(/name="intent" value="delete-profile"/);
    expect(html).toMatch(/name="profileId" value="p2"/);
  });

  it("shows a refused create by the form, with what was typed kept, and a refused delete above the list", () => {
    const refused = render(ultimateView, {
      ok: false,
      intent: "create-profile",
      title: "Error",
      message: "{size} is not a field.",
      fields: [],
      typed: { name: "Clips", format: "srt", language: "fr", filenameTemplate: "{size}" },
    });
    expect(refused).toMatch(/role="alert"[^>]*>\{size\} is not a field\./);
    expect(refused).toMatch(/<input(?=[^>]*name="name")(?=[^>]*value="Clips")/);
    expect(refused).toMatch(/<option value="srt" selected="">SRT/);
    expect(refused).toMatch(/<input(?=[^>]*name="language")(?=[^>]*value="fr")/);
    expect(refused).toMatch(/<input(?=[^>]*name="filenameTemplate")(?=[^>]*value="\{size\}")/);
    expect(refused).toContain('aria-invalid="true"');

    const gone = render(ultimateView, { ok: false, intent: "delete-profile", title: "Error", message: "We couldn't find that profile.", fields: [], typed: null });
    expect(gone).toMatch(/role="alert"[^>]*>We couldn&#x27;t find that profile\./);
    expect(gone).not.toContain('aria-invalid="true"');
  });

  it("offers no new profile once the account holds the most it can", () => {
    const full = { ...ultimateView, maxProfiles: 2 };
    expect(render(full)).toMatch(/<button[^>]*type="submit"[^>]*disabled=""[^>]*>Save profile/);
    expect(render(full)).toContain("delete one to add another");
  });

  it("shows a plan without profiles the reason and the plans page, with no form", () => {
    const html = render({ ...ultimateView, canUse: false, profiles: [], formats: [], upgradeText: "Custom download profiles come with the Ultimate plan. Change your plan to use them." });
    expect(html).toContain("Custom download profiles come with the Ultimate plan. Change your plan to use them.");
    expect(html).toMatch(/href="\/premium"[^>]*>See the plans/);
    expect(html).not.toContain("New profile");
    expect(html).not.toContain("<form");
  });

  it("lists the profiles kept from an earlier Ultimate plan, to delete them, but offers no new one", () => {
    const html = render({ ...ultimateView, canUse: false, formats: [], upgradeText: "Custom download profiles come with the Ultimate plan. Change your plan to use them." });
    expect(html).toContain("See the plans");
    expect(html).toContain('aria-label="Delete profile Archive"');
    expect(html).not.toContain("New profile");
  });
});

describe.each(testDatabases)("the Profiles tab on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  const logger = pino({ level: "silent" });
  let handle: TestDatabase | undefined;
  let accounts: ReturnType<typeof testAccounts>;
  const ctx = () => ({ db: handle!.db, logger, clientIp: "203.0.113.7", accounts, publicConfig: publicConfig(loadConfig({ LOG_LEVEL: "silent" })) });

  function request(path: string, cookie: string, init: RequestInit = {}) {
    return new Request(`${TEST_PUBLIC_URL}${path}`, { ...init, headers: { cookie, origin: TEST_PUBLIC_URL, ...(init.headers as Record<string, string>) } });
  }
  const post = (cookie: string, fields: Record<string, string>) =>
    callRoute(dashboardAction as never, request("/dashboard?tab=profiles", cookie, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } }), ctx()).then(unwrap);
  const profilesTab = async (cookie: string) => (await callRoute(dashboardLoader as never, request("/dashboard?tab=profiles", cookie), ctx())) as { profiles: ProfilesView };

  async function signUp(email: string, plan?: "pro" | "ultimate") {
    const res = await accounts.auth.api.signUpEmail({ body: { name: "Profile Owner", email, password: "correct horse battery" }, asResponse: true });
    const { user } = (await res.clone().json()) as { user: { id: string } };
    if (plan) await insertActiveSubscription(handle!.db, user.id, plan);
    return cookieHeaderFrom(res);
  }

  it.skipIf(skip)("Ultimate saves a profile, sees it listed with its format's label and offered on the home page, and deletes it", async () => {
    handle = await open();
    accounts = testAccounts(handle.db);
    const cookie = await signUp("ultimate@example.com", "ultimate");
    const empty = (await profilesTab(cookie)).profiles;
    expect(empty).toMatchObject({ canUse: true, profiles: [], maxProfiles: 20 });
    expect(empty.formats.map((f) => f.id)).toEqual(expect.arrayContaining(["mp4-360", "mp4-2160", "srt"]));

    const created = await post(cookie, { intent: "create-profile", name: " Archive ", format: "mp4-360", language: "", filenameTemplate: "{channel} - {title} [{id}]" });
    expect(created).toMatchObject({ status: 200, body: { ok: true, intent: "create-profile", title: "Profile saved" } });
    const [profile] = (await profilesTab(cookie)).profiles.profiles;
    expect(profile).toMatchObject({ name: "Archive", format: "mp4-360", formatLabel: "MP4 360p SD", language: null, filenameTemplate: "{channel} - {title} [{id}]" });

    const offer = await downloaderOfferFor(ctx(), request("/", cookie));
    expect(offer.profiles).toEqual([{ id: profile!.id, name: "Archive", format: "mp4-360" }]);

    expect(await post(cookie, { intent: "delete-profile", profileId: profile!.id })).toMatchObject({ status: 200, body: { ok: true, intent: "delete-profile" } });
    expect((await profilesTab(cookie)).profiles.profiles).toEqual([]);
    expect(await post(cookie, { intent: "delete-profile", profileId: profile!.id })).toMatchObject({ status: 404, body: { ok: false, message: "We couldn't find that profile.", typed: null } });
  });

  it.skipIf(skip)("a profile the server refuses comes back with its words and what was typed", async () => {
    handle = await open();
    accounts = testAccounts(handle.db);
    const cookie = await signUp("typo@example.com", "ultimate");
    const typed = { name: "Clips", format: "mp4-720", language: "de", filenameTemplate: "" };
    expect(await post(cookie, { intent: "create-profile", ...typed })).toMatchObject({
      status: 400,
      body: { ok: false, intent: "create-profile", message: "A language can only be chosen for subtitles and transcripts.", typed },
    });
    expect((await profilesTab(cookie)).profiles.profiles).toEqual([]);
  });

  it.skipIf(skip)("Pro and free are told which plan has profiles, their create is refused, and the home page offers them none", async () => {
    handle = await open();
    accounts = testAccounts(handle.db);
    const free = await signUp("free@example.com");
    const pro = await signUp("pro@example.com", "pro");
    expect((await profilesTab(pro)).profiles).toMatchObject({ canUse: false, profiles: [], formats: [], upgradeText: "Custom download profiles come with the Ultimate plan. Change your plan to use them." });
    expect((await profilesTab(free)).profiles).toMatchObject({ canUse: false, upgradeText: "Custom download profiles come with the Ultimate plan. Subscribe to use them." });
    expect(await post(pro, { intent: "create-profile", name: "Mine", format: "mp4-720" })).toMatchObject({
      status: 403,
      body: { ok: false, intent: "create-profile", message: "Custom download profiles come with the Ultimate plan. Change your plan to use them." },
    });
    expect((await downloaderOfferFor(ctx(), request("/", pro))).profiles).toEqual([]);
  });

  it.skipIf(skip)("an anonymous visitor's offer has no profiles and costs no query", async () => {
    handle = await open();
    accounts = testAccounts(handle.db);
    const noDb = new Proxy({} as TestDatabase["db"], {
      get() {
        throw new Error("the database was asked for a visitor");
      },
    });
    const offer = await downloaderOfferFor({ ...ctx(), db: noDb }, request("/", ""));
    expect(offer.profiles).toEqual([]);
    expect(offer.subtitleLanguages).toBe(false);
  });
});
