/**
 * Issue 30 §3: another platform's playlist through yt-dlp's flat listing. A stand-in yt-dlp
 * prints the current yt-dlp's `--flat-playlist -J` shape for a Vimeo showcase (entries of
 * `_type: "url"` with url, title, duration, thumbnails) and the video documents for its entries;
 * the listing keeps the order and leaves out an entry whose link we cannot read; an Ultimate
 * download of the showcase is the ZIP of its entries; the run asks for at most the cap plus one.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "#engine/types.ts";
import { otherPlatformDocuments, type FakeYtdlp } from "#tests/mocks/ytdlp.ts";
import { dlPath, get, serveDownloads } from "../engine-core/engine-fixture.ts";
import { run } from "../media/zip-readers.ts";
import { useFakeYtdlpBench, type EngineWithTools } from "./helpers.ts";

const CDN = "https://media.cdn.test";
const SHOWCASE = "https://vimeo.com/showcase/4242";
const ULTIMATE: Caller = { kind: "premium", plan: "ultimate", userId: "user-playlist" };

/** `yt-dlp --flat-playlist -J` for a Vimeo showcase, as yt-dlp 2025.x prints it */
function showcaseDocument(): Record<string, unknown> {
  const entry = (id: string, title: string) => ({
    _type: "url",
    ie_key: "Vimeo",
    id,
    url: `https://vimeo.com/${id}`,
    title,
    duration: 6,
    thumbnails: [
      { url: `${CDN}/thumbnail.jpg?w=295`, width: 295, height: 166 },
      { url: `${CDN}/thumbnail.jpg?w=1280`, width: 1280, height: 720 },
    ],
    __x_forwarded_for_ip: null,
  });
  return {
    id: "4242",
    title: "Harbour films",
    _type: "playlist",
    entries: [
      entry("123456781", "First light"),
      // a link that is no video form of ours (a user page): left out of the listing
      { _type: "url", ie_key: "Vimeo", id: "someone", url: "https://vimeo.com/user/someone", title: "Profile" },
      entry("123456782", "Harbour at noon"),
    ],
    webpage_url: SHOWCASE,
    original_url: SHOWCASE,
    webpage_url_basename: "4242",
    extractor: "vimeo:showcase",
    extractor_key: "VimeoShowcase",
    playlist_count: 3,
    epoch: 1767225600,
    _version: { version: "2025.10.22", current_git_head: null, release_git_head: "c9356f308dd3c5f9f494cb40ed14c5df017b4fe0", repository: "yt-dlp/yt-dlp" },
  };
}

const bench = useFakeYtdlpBench(["*.cdn.test"]);

describe("a platform's playlist through yt-dlp's flat listing", () => {
  let fixture: EngineWithTools;
  let fake: FakeYtdlp;
  beforeAll(async () => {
    // the showcase's own document first: "vimeo.com" would match its link too
    const started = await bench.engineWith({ type: "by-link", documents: { "showcase/4242": showcaseDocument(), ...otherPlatformDocuments(CDN) } });
    fixture = started.fixture;
    fake = started.fake!;
  });

  it("lists the showcase's entries in order with title, duration and thumbnail; a run asks for a flat listing", async () => {
    const answer = await fixture.engine.resolveLink(SHOWCASE, { kind: "anonymous" });
    expect(answer).toEqual({
      playlist: {
        title: "Harbour films",
        url: SHOWCASE,
        total: 3,
        entries: [
          { url: "https://vimeo.com/123456781", title: "First light", duration: 6, thumbnail: `${CDN}/thumbnail.jpg?w=295` },
          { url: "https://vimeo.com/123456782", title: "Harbour at noon", duration: 6, thumbnail: `${CDN}/thumbnail.jpg?w=295` },
        ],
      },
    });
    const last = (await fake.runs()).at(-1)!;
    expect(last.link).toBe(SHOWCASE);
    expect(last.args).toContain("--flat-playlist");
    expect(last.args).toContain("--yes-playlist");
    expect(last.args).not.toContain("--no-playlist");
    expect(last.args.slice(-2)).toEqual(["--", SHOWCASE]);
  });

  it("an Ultimate download of the showcase is the ZIP of its entries; the listing asked for the cap plus one", async () => {
    const created = await fixture.engine.createDownload({ url: SHOWCASE, format: "mp4-360", caller: ULTIMATE, ip: "203.0.113.9" });
    const listing = (await fake.runs()).filter((r) => r.args.includes("--flat-playlist")).at(-1)!;
    expect(listing.args[listing.args.indexOf("--playlist-end") + 1]).toBe("51");
    const server = await serveDownloads(fixture.engine);
    const dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-ytdlp-playlist-"));
    try {
      const res = await get(`${server.origin}${dlPath(created.downloadUrl)}`);
      expect(res.status).toBe(200);
      const zipPath = path.join(dir, "showcase.zip");
      await writeFile(zipPath, res.body);
      expect(await run("unzip", ["-t", zipPath])).toContain("No errors detected");
      expect((await run("zipinfo", ["-1", zipPath])).trim().split("\n")).toHaveLength(3);
      const manifest = (await run("unzip", ["-p", zipPath, "manifest.csv"])).replace(/^\uFEFF/, "");
      const rows = manifest.split("\r\n").filter(Boolean).slice(1).map((l) => l.split(","));
      expect(rows.map((r) => [r[0], r[2], r[7]])).toEqual([
        ["1", "https://vimeo.com/123456781", "ok"],
        ["2", "https://vimeo.com/123456782", "ok"],
      ]);
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("a video link names no playlist: listing it is refused before any run", async () => {
    const before = (await fake.runs()).length;
    await expect(fixture.engine.listPlaylist("https://vimeo.com/123456789")).rejects.toMatchObject({ code: "link.invalid" });
    expect(await fake.runs()).toHaveLength(before);
  });
});

describe("a playlist longer than the plan's links per ZIP", () => {
  it("is a 400 bulk.too_many_links naming its length and the cap, before any video is read", async () => {
    const long = showcaseDocument();
    long.entries = Array.from({ length: 51 }, (_, i) => ({ _type: "url", ie_key: "Vimeo", id: String(300000000 + i), url: `https://vimeo.com/${300000000 + i}`, title: `Part ${i + 1}`, duration: 6 }));
    long.playlist_count = 64;
    const { fixture, fake } = await bench.engineWith({ type: "by-link", documents: { "showcase/4242": long } });
    await expect(fixture.engine.createDownload({ url: SHOWCASE, format: "mp4-360", caller: ULTIMATE, ip: "203.0.113.9" })).rejects.toMatchObject({
      code: "bulk.too_many_links",
      status: 400,
      message: "This playlist has 64 videos; a ZIP takes at most 50. Choose up to 50 of them and download those as a list of links.",
    });
    expect((await fake!.runs()).map((r) => r.link)).toEqual([SHOWCASE]);
  });
});

describe("without yt-dlp", () => {
  it("a platform playlist is answered honestly: this server cannot list it", async () => {
    const { fixture } = await bench.engineWith("none");
    await expect(fixture.engine.resolveLink(SHOWCASE, { kind: "anonymous" })).rejects.toMatchObject({ code: "link.platform_unavailable", message: "This server cannot list Vimeo playlists: Vimeo support is not installed here." });
  });
});
