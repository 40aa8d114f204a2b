import pino from "pino";
import { describe, expect, it } from "vitest";
import type { EngineConfig } from "../../config.ts";
import type { OutboundFetch } from "../../outbound/outbound-fetch.ts";
import type { SourceContext } from "../types.ts";
import { continuationOf, entriesOf, listYouTubePlaylist, titleOf, totalOf } from "./playlist.ts";

const LIST = "PLlistingTest000001";
const link = { kind: "youtube" as const, listId: LIST, url: `https://www.youtube.com/playlist?list=${LIST}` };

function id(n: number): string {
  return `vid${String(n).padStart(8, "0")}`;
}

function renderer(n: number) {
  return {
    playlistVideoRenderer: {
      videoId: id(n),
      thumbnail: {
        thumbnails: [
          { url: `https://i.ytimg.com/vi/${id(n)}/default.jpg`, width: 120, height: 90 },
          { url: `https://i.ytimg.com/vi/${id(n)}/hqdefault.jpg`, width: 480, height: 360 },
          { url: `https://i.ytimg.com/vi/${id(n)}/mqdefault.jpg`, width: 320, height: 180 },
        ],
      },
      title: { runs: [{ text: `Part ${n}` }] },
      index: { simpleText: String(n) },
      lengthSeconds: String(60 + n),
      isPlayable: true,
    },
  };
}

/** the 2024+ continuation item: its token inside a command executor */
function continuation(token: string) {
  return {
    continuationItemRenderer: {
      trigger: "CONTINUATION_TRIGGER_ON_ITEM_SHOWN",
      continuationEndpoint: { commandExecutorCommand: { commands: [{ playlistVotingRefreshPopupCommand: {} }, { continuationCommand: { token, request: "CONTINUATION_REQUEST_TYPE_BROWSE" } }] } },
    },
  };
}

function firstPage(from: number, to: number, token: string | null) {
  const items = [];
  for (let n = from; n <= to; n++) items.push(renderer(n));
  if (token) items.push(continuation(token));
  return {
    contents: {
      twoColumnBrowseResultsRenderer: {
        tabs: [{ tabRenderer: { content: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: [{ playlistVideoListRenderer: { contents: items } }] } }] } } } }],
      },
    },
    header: { playlistHeaderRenderer: { title: { simpleText: "Long list" }, numVideosText: { runs: [{ text: "1,234" }, { text: " videos" }] } } },
  };
}

function nextPage(from: number, to: number, token: string | null) {
  const items: unknown[] = [];
  for (let n = from; n <= to; n++) items.push(renderer(n));
  if (token) items.push({ continuationItemRenderer: { continuationEndpoint: { continuationCommand: { token } } } });
  return { onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: items, targetId: `VL${LIST}` } }] };
}

/** an InnerTube stand-in: `/browse` answers by browseId or continuation token; the requests are kept */
function fakeInnertube(pages: Record<string, unknown>): { ctx: SourceContext; asked: string[] } {
  const asked: string[] = [];
  const fetch: OutboundFetch = async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const body = JSON.parse(String(init?.body ?? "{}")) as { browseId?: string; continuation?: string };
    const key = body.browseId ?? body.continuation ?? "";
    asked.push(`${new URL(url).pathname} ${key}`);
    const page = pages[key];
    return new Response(JSON.stringify(page ?? {}), { status: page ? 200 : 400, headers: { "content-type": "application/json" } });
  };
  const config = { hostMap: "i.ytimg.com=http://127.0.0.1:4010" } as unknown as EngineConfig;
  return { ctx: { fetch, config, logger: pino({ level: "silent" }), media: { ffmpeg: "", ffprobe: "", version: "", source: "path" } } as unknown as SourceContext, asked };
}

describe("YouTube playlist pages", () => {
  it("reads each entry's link, title, duration and a picker-sized thumbnail (browser host mapped)", () => {
    const page = firstPage(1, 2, "tok");
    expect(entriesOf(page, "i.ytimg.com=http://127.0.0.1:4010")).toEqual([
      { url: `https://www.youtube.com/watch?v=${id(1)}`, title: "Part 1", durationSeconds: 61, thumbnail: `http://127.0.0.1:4010/vi/${id(1)}/mqdefault.jpg` },
      { url: `https://www.youtube.com/watch?v=${id(2)}`, title: "Part 2", durationSeconds: 62, thumbnail: `http://127.0.0.1:4010/vi/${id(2)}/mqdefault.jpg` },
    ]);
    expect(continuationOf(page)).toBe("tok");
    expect(titleOf(page)).toBe("Long list");
    expect(totalOf(page)).toBe(1234);
    expect(continuationOf(firstPage(1, 2, null))).toBeNull();
  });
});

describe("listYouTubePlaylist", () => {
  it("follows continuations until it knows enough entries, and no further", async () => {
    const { ctx, asked } = fakeInnertube({ [`VL${LIST}`]: firstPage(1, 100, "page2"), page2: nextPage(101, 200, "page3"), page3: nextPage(201, 230, null) });
    const few = await listYouTubePlaylist(link, ctx, 51);
    expect(few.entries).toHaveLength(100);
    expect(few.total).toBe(1234);
    expect(asked).toEqual([`/youtubei/v1/browse VL${LIST}`]);

    asked.length = 0;
    const all = await listYouTubePlaylist(link, ctx);
    expect(asked.map((a) => a.split(" ")[1])).toEqual([`VL${LIST}`, "page2", "page3"]);
    expect(all.entries.map((e) => e.title)).toEqual(Array.from({ length: 230 }, (_, i) => `Part ${i + 1}`));
    // read to its end, the listing's own length wins over the header's count
    expect(all.total).toBe(230);
    expect(all.title).toBe("Long list");
    expect(all.url).toBe(link.url);
  });

  it("an ERROR alert, or a 400 from InnerTube, is a playlist that does not exist", async () => {
    const alert = fakeInnertube({ [`VL${LIST}`]: { alerts: [{ alertRenderer: { type: "ERROR", text: { runs: [{ text: "The playlist does not exist." }] } } }] } });
    await expect(listYouTubePlaylist(link, alert.ctx)).rejects.toMatchObject({ code: "video.not_found", message: "This playlist does not exist, or it is private." });
    const missing = fakeInnertube({});
    await expect(listYouTubePlaylist(link, missing.ctx)).rejects.toMatchObject({ code: "video.not_found", message: "This playlist does not exist, or it is private." });
  });
});
