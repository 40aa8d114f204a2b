/**
 * A stand-in for the YouTube source in media tests: answers every watch link whose id it knows
 * with the streams the test gives, a title and a length, and `video.not_found` for the rest.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { createEngine, type Engine } from "#engine/index.ts";
import { locateMediaTools } from "#engine/media/ffmpeg.ts";
import { parseMediaOptions } from "#engine/media/options/media-options.ts";
import type { SourceAdapter } from "#engine/sources/types.ts";
import type { ResolvedMedia, UpstreamStream, VideoDetails } from "#engine/types.ts";
import { dlPath, get, serveDownloads, testConfig } from "../engine-core/engine-fixture.ts";
import { startCountingOrigin, type CountingOrigin } from "./counting-origin.ts";

export interface FakeVideo {
  title: string;
  seconds: number;
  streams: () => Promise<UpstreamStream[]>;
  captions?: ResolvedMedia["captions"];
  chapters?: ResolvedMedia["chapters"];
}

export function fakeYoutube(videos: Record<string, FakeVideo>): SourceAdapter {
  return {
    platform: "youtube",
    matches: (parsed) => parsed.kind === "youtube",
    async resolve(parsed) {
      if (parsed.kind !== "youtube") return { ok: false, code: "link.unsupported" };
      const video = videos[parsed.id];
      if (!video) return { ok: false, code: "video.not_found" };
      const m = Math.floor(video.seconds / 60);
      const details: VideoDetails = {
        ...{ id: parsed.id, title: video.title, description: "", thumbnail: "", channelTitle: "Test", channelId: "UC1", channelThumbnail: "", isMonetized: false },
        ...{ subscriberCount: "Unknown", publishedAt: "Jan 1, 2026", duration: `${m}:${String(video.seconds % 60).padStart(2, "0")}`, viewCount: "1 views" },
        ...{ likeCount: "0", tags: [], downloadUrl: parsed.url, platform: "youtube", durationSeconds: video.seconds, embedUrl: null },
      };
      return { ok: true, media: { platform: "youtube", sourceUrl: parsed.url, details, streams: await video.streams(), thumbnails: [], captions: video.captions ?? [], ...(video.chapters ? { chapters: video.chapters } : {}) } };
    },
  };
}

/** The engine with these sources, on a counting CDN serving `root` as `host`, and its download handler on loopback. */
export async function startMediaEngine(root: string, host: string, sources: SourceAdapter[]): Promise<{ origin: CountingOrigin; engine: Engine; server: { origin: string }; close(): Promise<void> }> {
  const origin = await startCountingOrigin(root);
  const engine = await createEngine(testConfig({ hostMap: `${host}=${origin.origin}` }), { sources, media: await locateMediaTools({}), killGraceMs: 500 });
  const server = await serveDownloads(engine);
  return {
    origin,
    engine,
    server,
    async close() {
      await server.close();
      await engine.close();
      await origin.close();
    },
  };
}

let nextIp = 1;

/** One download through its signed link, counted at the CDN from the link on (the resolve's own reads left out), saved in `dir`. */
export async function countedDownload(
  env: { engine: Engine; origin: CountingOrigin; server: { origin: string } },
  url: string,
  format: string,
  options: Record<string, unknown>,
  dir: string,
): Promise<{ file: string; fetched: number; body: Buffer }> {
  const created = await env.engine.createDownload({ url, format, caller: { kind: "anonymous" }, ip: `198.51.100.${nextIp++}`, options: parseMediaOptions(options) });
  await env.origin.settled();
  env.origin.reset();
  const res = await get(env.server.origin + dlPath(created.downloadUrl));
  if (res.status !== 200 || res.outcome !== "end") throw new Error(`download answered ${res.status} (${res.outcome}): ${res.body.toString("utf8", 0, 300)}`);
  await env.origin.settled();
  const file = path.join(dir, `${nextIp}-${created.filename.replace(/[^\w.()-]+/g, "_")}`);
  await writeFile(file, res.body);
  return { file, fetched: env.origin.bytes(), body: res.body };
}
