/**
 * Issue 30 §3 playlists through /api/v1 as the host mounts it, on the mock platform's playlist:
 * `POST /resolve` lists its entries (title, duration, thumbnail, link) in order; an Ultimate
 * user's `POST /downloads` of the playlist link is the bulk ZIP of those entries in order (files
 * that ffprobe, manifest rows per entry); other plans get 403 plan.required naming Ultimate; a
 * watch link inside the playlist still resolves and downloads as its video.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { testDatabases } from "#tests/support/test-db.ts";
import { MOCK_PLATFORM_PLAYLISTS } from "#tests/mocks/platform.ts";
import { ffprobeFile } from "../media/helpers.ts";
import { run } from "../media/zip-readers.ts";
import { closePlatform, planFixtureFor, type PlanFixture } from "../plans/plan-fixture.ts";

afterAll(() => closePlatform());

const LIST = MOCK_PLATFORM_PLAYLISTS[0]!;
const PLAYLIST_URL = `https://www.youtube.com/playlist?list=${LIST.id}`;
const ENTRY_URLS = LIST.videoIds.map((id) => `https://www.youtube.com/watch?v=${id}`);
const TITLES = ["Sample clip in every quality", "Sample clip up to 720p", "Sample clip with captions"];

interface PlaylistBody {
  playlist: { title: string; url: string; total: number | null; entries: Array<{ url: string; title: string; duration: number | null; thumbnail: string | null }> };
}

/** the manifest's rows without its header (fields never hold a comma or quote here) */
function manifestRows(csv: string): string[][] {
  return csv
    .replace(/^\uFEFF/, "")
    .split("\r\n")
    .filter(Boolean)
    .slice(1)
    .map((line) => line.split(","));
}

describe.each(testDatabases)("playlist ZIPs through /api/v1 on $name", (variant) => {
  let fx: PlanFixture;
  const { skip } = planFixtureFor(variant, (started) => ({ fx } = started));

  it.skipIf(skip)("POST /resolve of a playlist link lists its entries in order", async () => {
    const res = await fx.post("/resolve", { url: PLAYLIST_URL });
    expect(res.status).toBe(200);
    const body = (await res.json()) as PlaylistBody;
    expect(Object.keys(body)).toEqual(["playlist"]);
    expect(body.playlist.title).toBe(LIST.title);
    expect(body.playlist.url).toBe(PLAYLIST_URL);
    expect(body.playlist.total).toBe(3);
    expect(body.playlist.entries.map((e) => [e.url, e.title])).toEqual(ENTRY_URLS.map((u, i) => [u, TITLES[i]]));
    for (const e of body.playlist.entries) {
      expect(e.duration).toBeGreaterThan(0);
      // the browser loads the thumbnail: it points at the mock's image host, and it is there
      expect(e.thumbnail).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/vi\/\w+\/(?:hq|mq)default\.jpg$/);
      expect((await fetch(e.thumbnail!)).status).toBe(200);
    }
  });

  it.skipIf(skip)("a watch link inside the playlist answers its video as before, with the playlist beside it", async () => {
    const res = await fx.post("/resolve", { url: `https://www.youtube.com/watch?v=vidfetch720&list=${LIST.id}&index=2` });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { video: { title: string }; formats: unknown[] } & PlaylistBody;
    expect(body.video.title).toBe("Sample clip up to 720p");
    expect(body.formats.length).toBeGreaterThan(0);
    expect(body.playlist.entries).toHaveLength(3);
  });

  it.skipIf(skip)("a watch link whose playlist cannot be listed answers its video alone", async () => {
    const res = await fx.post("/resolve", { url: "https://www.youtube.com/watch?v=vidfetch720&list=PLnoSuchPlaylist000" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["audioTracks", "chapters", "formats", "subtitleTranslations", "subtitles", "video"]);
  });

  it.skipIf(skip)("GET /download of a playlist link redirects an Ultimate user to the same ZIP", async () => {
    const user = await fx.signUp("PlaylistGet", "ultimate");
    const res = await fetch(`${fx.origin}/api/v1/download?url=${encodeURIComponent(PLAYLIST_URL)}&format=mp4-360`, { headers: { cookie: user.cookie }, redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/\/api\/v1\/dl\/zip\./);
  });

  it.skipIf(skip)("an unknown playlist is a 404 with a sentence about playlists", async () => {
    const res = await fx.post("/resolve", { url: "https://www.youtube.com/playlist?list=PLnoSuchPlaylist000" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "video.not_found", message: "This playlist does not exist, or it is private." } });
  });

  it.skipIf(skip)("an Ultimate user's playlist download is one ZIP of its entries in order, each file probing as the format", async () => {
    const user = await fx.signUp("Playlist", "ultimate");
    const res = await fx.post("/downloads", { url: PLAYLIST_URL, format: "mp4-360" }, user.cookie);
    expect(res.status).toBe(200);
    const created = (await res.json()) as { downloadUrl: string; filename: string; bytes: number | null };
    expect(created.bytes).toBeNull();
    // the archive is named after the playlist
    expect(created.filename).toBe(`${LIST.title}.zip`);
    const file = await fetch(created.downloadUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/zip");
    const archive = Buffer.from(await file.arrayBuffer());
    const dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-playlist-"));
    try {
      const zipPath = path.join(dir, "playlist.zip");
      await writeFile(zipPath, archive);
      expect(await run("unzip", ["-t", zipPath])).toContain("No errors detected");
      const names = (await run("zipinfo", ["-1", zipPath])).trim().split("\n");
      expect(names).toEqual([...TITLES.map((t) => `${t} (360p).mp4`), "manifest.csv"]);
      const out = path.join(dir, "out");
      await run("unzip", ["-q", zipPath, "-d", out]);
      const rows = manifestRows(await readFile(path.join(out, "manifest.csv"), "utf8"));
      expect(rows.map((r) => [r[0], r[1], r[2], r[3], r[4], r[7]])).toEqual(ENTRY_URLS.map((u, i) => [String(i + 1), TITLES[i], u, "mp4-360", `${TITLES[i]} (360p).mp4`, "ok"]));
      for (const name of names.slice(0, -1)) {
        const probe = await ffprobeFile(path.join(out, name));
        expect(probe.formatName).toContain("mp4");
        expect(probe.streams.find((s) => s.codec_type === "video")?.height).toBe(360);
        expect(probe.streams.some((s) => s.codec_type === "audio")).toBe(true);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it.skipIf(skip)("a playlist link pasted alone as the list of links is the playlist's ZIP; among other links it is refused by its line", async () => {
    const user = await fx.signUp("PlaylistAsList", "ultimate");
    const alone = await fx.post("/downloads", { urls: [PLAYLIST_URL], format: "mp4-360" }, user.cookie);
    expect(alone.status).toBe(200);
    expect(((await alone.json()) as { filename: string }).filename).toBe(`${LIST.title}.zip`);
    const mixed = await fx.post("/downloads", { urls: [ENTRY_URLS[0], PLAYLIST_URL], format: "mp4-360" }, user.cookie);
    expect(mixed.status).toBe(400);
    expect(await mixed.json()).toEqual({ error: { code: "link.invalid", message: "Link 2: A playlist link goes alone: paste it by itself to download its videos." } });
  });

  it.skipIf(skip)("anonymous, Free, Basic and Pro callers get 403 plan.required naming Ultimate for a playlist", async () => {
    const body = { url: PLAYLIST_URL, format: "mp4-360" };
    const subscribe = "Bulk downloads come with the Ultimate plan. Subscribe to use them.";
    const change = "Bulk downloads come with the Ultimate plan. Change your plan to use them.";
    const anonymous = await fx.post("/downloads", body);
    expect(anonymous.status).toBe(403);
    expect(await anonymous.json()).toEqual({ error: { code: "plan.required", message: subscribe } });
    const free = await fx.signUp("FreePlaylist");
    expect(await (await fx.post("/downloads", body, free.cookie)).json()).toEqual({ error: { code: "plan.required", message: subscribe } });
    for (const plan of ["basic", "pro"] as const) {
      const paid = await fx.signUp(`Playlist${plan}`, plan);
      const refused = await fx.post("/downloads", body, paid.cookie);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: { code: "plan.required", message: change } });
    }
  });

  it.skipIf(skip)("a watch link inside the playlist still downloads its one video, for any plan", async () => {
    const free = await fx.signUp("FreeWatch");
    const res = await fx.post("/downloads", { url: `https://www.youtube.com/watch?v=vidfetchCap&list=${LIST.id}`, format: "mp4-360" }, free.cookie);
    expect(res.status).toBe(200);
    const created = (await res.json()) as { filename: string };
    expect(created.filename).toBe("Sample clip with captions (360p).mp4");
  });
});
