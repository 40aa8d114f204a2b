import { describe, expect, it } from "vitest";
import { platformRequests } from "#db/schema/index.ts";
import { formPost, routeContext, unwrap } from "#tests/support/route-context.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { statusLabel, type PlatformEntry } from "#app/modules/platforms/platform-status.ts";
import { action, loader } from "./supported-sites.tsx";

const call = (handle: TestDatabase, fields: Record<string, string>) =>
  action({ request: formPost("http://localhost/supported-sites", fields), context: routeContext(handle.db), params: {} } as never).then(unwrap);

describe.each(testDatabases)("POST /supported-sites (Request Platform Support) on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;

  it.skipIf(skip)("stores the request", async () => {
    handle = await open();
    const res = await call(handle, { platformName: "Rumble", email: "", details: "News clips", website: "" });
    expect(res).toMatchObject({ status: 200, body: { ok: true, title: "Request received" } });
    const rows = await handle.db.select().from(platformRequests);
    expect(rows.map((r) => [r.platformName, r.email, r.details])).toEqual([["Rumble", null, "News clips"]]);
  });

  it.skipIf(skip)("requires the platform name and stores nothing without it", async () => {
    handle = await open();
    const res = await call(handle, { platformName: " ", email: "me@example.com", details: "" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, fields: ["platformName"], values: { email: "me@example.com" } });
    expect(await handle.db.select().from(platformRequests)).toHaveLength(0);
  });

  it.skipIf(skip)("validates an email when one is given", async () => {
    handle = await open();
    const res = await call(handle, { platformName: "Rumble", email: "me at example" });
    expect(res).toMatchObject({ status: 400, body: { message: "Please enter a valid email address", fields: ["email"] } });
  });

  it.skipIf(skip)("reports a database failure", async () => {
    handle = await open();
    await handle.close();
    const res = await call(handle, { platformName: "Rumble" });
    expect(res).toMatchObject({ status: 500, body: { ok: false, message: "There was a problem sending your request. Please try again." } });
  });
});

describe("GET /supported-sites: the cards say what this server can do", () => {
  const cards = (ytdlp: boolean) => {
    const context = { engine: { ytdlp: ytdlp ? { path: "/usr/bin/yt-dlp", version: "2023.03.04" } : null } };
    return (loader({ context, request: new Request("http://localhost/supported-sites"), params: {} } as never) as ReturnType<typeof loader>).platforms;
  };
  const statusOf = (list: PlatformEntry[]) => Object.fromEntries(list.map((p) => [p.name, statusLabel(p)]));

  it("without yt-dlp: Facebook and Instagram say what the server lacks, the rest of the spec's table stays", () => {
    expect(statusOf(cards(false))).toEqual({
      YouTube: "Fully Supported",
      Facebook: "Basic Support (needs yt-dlp on this server)",
      Instagram: "Basic Support (needs yt-dlp on this server)",
      TikTok: "Coming Soon",
      "Twitter (X)": "Coming Soon",
      Vimeo: "Coming Soon",
      Dailymotion: "Coming Soon",
      Twitch: "Coming Soon",
    });
  });

  it("with yt-dlp: Facebook and Instagram as the spec says, and the platforms yt-dlp reads get basic support", () => {
    const list = cards(true);
    expect(statusOf(list)).toEqual({
      YouTube: "Fully Supported",
      Facebook: "Basic Support",
      Instagram: "Basic Support",
      TikTok: "Basic Support",
      "Twitter (X)": "Basic Support",
      Vimeo: "Basic Support",
      Dailymotion: "Basic Support",
      Twitch: "Basic Support",
    });
    expect(list.find((p) => p.name === "Facebook")).toMatchObject({ maxQuality: "720p", formats: ["MP4"] });
    expect(list.find((p) => p.name === "Vimeo")?.features.join(" ")).not.toMatch(/Planned/);
  });
});

describe("GET /supported-sites: the sites this server's yt-dlp reads", () => {
  const ytdlp = { path: "/usr/local/bin/yt-dlp", version: "2026.11.01" };
  const extractors = [
    { name: "youtube", broken: false },
    { name: "youtube:tab", broken: false },
    { name: "Vimeo", broken: false },
    { name: "vimeo:album", broken: false },
    { name: "spotify", broken: true },
    { name: "17live", broken: false },
  ];
  const sitesOf = (context: object, url = "http://localhost/supported-sites") => (loader({ context, request: new Request(url), params: {} } as never) as ReturnType<typeof loader>).ytdlpSites;
  const listing = (list: unknown) => ({ engine: { ytdlp }, ytdlpExtractors: { current: () => list } });

  it("lists every site once (extractors grouped before the colon), sorted, with the counts and yt-dlp's version", () => {
    expect(sitesOf(listing({ state: "ready", version: "2026.11.01", extractors }))).toEqual({
      state: "ready",
      version: "2026.11.01",
      extractorCount: 6,
      sites: [
        { name: "17live", broken: false },
        { name: "spotify", broken: true },
        { name: "Vimeo", broken: false },
        { name: "youtube", broken: false },
      ],
      search: null,
    });
  });

  it("?site= gives the extractors whose names contain it, whatever the case", () => {
    const ready = listing({ state: "ready", version: "2026.11.01", extractors });
    expect(sitesOf(ready, "http://localhost/supported-sites?site=+VIMEO+")).toMatchObject({
      search: {
        query: "VIMEO",
        matches: [
          { name: "Vimeo", broken: false },
          { name: "vimeo:album", broken: false },
        ],
        total: 2,
      },
    });
    expect(sitesOf(ready, "http://localhost/supported-sites?site=rumble")).toMatchObject({ search: { query: "rumble", matches: [], total: 0 } });
  });

  it("a search matching more than a hundred shows the first hundred and the total", () => {
    const many = Array.from({ length: 150 }, (_, i) => ({ name: `site${i}`, broken: false }));
    const view = sitesOf(listing({ state: "ready", version: "2026.11.01", extractors: many }), "http://localhost/supported-sites?site=site");
    expect(view).toMatchObject({ search: { total: 150 } });
    expect(view.state === "ready" ? view.search?.matches.map((e) => e.name) : []).toEqual(many.slice(0, 100).map((e) => e.name));
  });

  it("without yt-dlp: absent; while the list is read: yt-dlp's version, without waiting", () => {
    expect(sitesOf({ engine: { ytdlp: null }, ytdlpExtractors: { current: () => ({ state: "absent" }) } })).toEqual({ state: "absent" });
    expect(sitesOf({ engine: { ytdlp: null } })).toEqual({ state: "absent" });
    expect(sitesOf(listing({ state: "reading", version: "2026.11.01" }))).toEqual({ state: "reading", version: "2026.11.01" });
    expect(sitesOf({ engine: { ytdlp } })).toEqual({ state: "reading", version: "2026.11.01" });
  });
});
