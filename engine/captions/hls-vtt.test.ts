import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES_ROOT } from "#tests/mocks/youtube.ts";
import { Parser } from "m3u8-parser";
import { EngineError } from "../errors.ts";
import type { OutboundFetch } from "../outbound/outbound-fetch.ts";
import type { CaptionTrack } from "../types.ts";
import { fetchCues, renderTranscript } from "./fetch-transcript.ts";
import { firstTsPts } from "./ts-start.ts";
import { fetchHlsVttCues, HLS_VTT, hlsSubtitleTracks, hlsVttCues, MAX_SUBTITLE_BYTES, MAX_SUBTITLE_SEGMENTS, timestampMap, type SubtitleGroups } from "./hls-vtt.ts";

const vtt = (map: string | null, ...cues: string[]) => `WEBVTT${map ? `\nX-TIMESTAMP-MAP=${map}` : ""}\n\n${cues.join("\n\n")}\n`;

describe("timestampMap", () => {
  it("reads MPEGTS and LOCAL in either order, with or without hours", () => {
    expect(timestampMap(vtt("MPEGTS:900000,LOCAL:00:00:00.000"))).toEqual({ mpegts: 900000, localMs: 0 });
    expect(timestampMap(vtt("LOCAL:01:02.500,MPEGTS:181083"))).toEqual({ mpegts: 181083, localMs: 62_500 });
    expect(timestampMap("WEBVTT\r\nX-TIMESTAMP-MAP=MPEGTS:90000, LOCAL:00:00:01.000\r\n\r\n")).toEqual({ mpegts: 90000, localMs: 1000 });
  });

  it("is null without a map, with half of one, or with one below the header", () => {
    expect(timestampMap(vtt(null, "00:01.000 --> 00:02.000\nhi"))).toBeNull();
    expect(timestampMap(vtt("MPEGTS:900000"))).toBeNull();
    expect(timestampMap(vtt("MPEGTS:abc,LOCAL:00:00.000"))).toBeNull();
    expect(timestampMap("WEBVTT\n\n00:01.000 --> 00:02.000\nX-TIMESTAMP-MAP=MPEGTS:1,LOCAL:00:00.000\n")).toBeNull();
  });
});

describe("hlsVttCues", () => {
  it("takes the first segment's map as time zero and moves each later segment by its own", () => {
    // Apple's style: every segment counts LOCAL from its own start, its MPEGTS says where that is
    const cues = hlsVttCues([
      vtt("MPEGTS:900000,LOCAL:00:00:00.000", "00:00:00.500 --> 00:00:01.500\none"),
      vtt("MPEGTS:1080000,LOCAL:00:00:00.000", "00:00:00.250 --> 00:00:01.000\ntwo"),
      // LOCAL counted on: its 3 s are the media's 17 s, 7 s after time zero
      vtt("MPEGTS:1530000,LOCAL:00:00:03.000", "00:00:03.100 --> 00:00:03.900\nthree"),
    ]);
    expect(cues).toEqual([
      { startMs: 500, endMs: 1500, text: "one" },
      { startMs: 2250, endMs: 3000, text: "two" },
      { startMs: 7100, endMs: 7900, text: "three" },
    ]);
  });

  it("keeps cues as they stand where the segments carry no map (ffmpeg's HLS output) or all carry the same one", () => {
    const plain = hlsVttCues([vtt(null, "00:00.580 --> 00:01.580\nHello"), vtt(null, "00:02.580 --> 00:05.080\nSpanning")]);
    expect(plain).toEqual([
      { startMs: 580, endMs: 1580, text: "Hello" },
      { startMs: 2580, endMs: 5080, text: "Spanning" },
    ]);
    const same = "MPEGTS:126000,LOCAL:00:00:00.000";
    expect(hlsVttCues([vtt(same, "00:01.000 --> 00:02.000\na"), vtt(same, "00:04.000 --> 00:05.000\nb")]).map((c) => c.startMs)).toEqual([1000, 4000]);
  });

  it("counts a map past the 33-bit wrap forward", () => {
    const cues = hlsVttCues([
      vtt(`MPEGTS:${2 ** 33 - 90_000},LOCAL:00:00:00.000`, "00:00:00.000 --> 00:00:00.500\nbefore"),
      vtt("MPEGTS:90000,LOCAL:00:00:00.000", "00:00:00.000 --> 00:00:00.500\nafter"),
    ]);
    expect(cues.map((c) => c.startMs)).toEqual([0, 2000]);
  });

  it("makes a cue repeated in each segment it spans, or cut at their boundary, one cue again", () => {
    const cues = hlsVttCues([
      vtt("MPEGTS:900000,LOCAL:00:00:00.000", "00:00:01.000 --> 00:00:03.000\nacross", "00:00:01.500 --> 00:00:02.000\nshort", "00:00:01.800 --> 00:00:02.000\nhalf"),
      vtt("MPEGTS:1080000,LOCAL:00:00:00.000", "00:00:00.000 --> 00:00:01.000\nacross", "00:00:00.000 --> 00:00:00.600\nhalf", "00:00:00.700 --> 00:00:01.000\nshort"),
    ]);
    expect(cues).toEqual([
      { startMs: 1000, endMs: 3000, text: "across" },
      { startMs: 1500, endMs: 2000, text: "short" },
      { startMs: 1800, endMs: 2600, text: "half" },
      // the same words again after a pause are a cue of their own
      { startMs: 2700, endMs: 3000, text: "short" },
    ]);
  });

  it("drops a cue that ends before time zero and refuses a segment that is not WebVTT", () => {
    // the second segment's LOCAL 5 s are time zero
    const maps = [vtt("MPEGTS:900000,LOCAL:00:00:00.000"), vtt("MPEGTS:900000,LOCAL:00:00:05.000", "00:00:04.000 --> 00:00:04.500\ngone", "00:00:04.800 --> 00:00:05.500\nkept")];
    expect(hlsVttCues(maps)).toEqual([{ startMs: 0, endMs: 500, text: "kept" }]);
    expect(() => hlsVttCues([vtt(null, "00:01.000 --> 00:02.000\nok"), "<html>not found</html>"])).toThrow(expect.objectContaining({ code: "transcript.unavailable" }));
    expect(hlsVttCues(["\uFEFFWEBVTT\n"])).toEqual([]);
  });
});

/** A master's subtitle groups as m3u8-parser reads them (the generic source's parse). */
function subtitleGroups(text: string): SubtitleGroups | undefined {
  const parser = new Parser();
  parser.push(text);
  parser.end();
  return (parser.manifest as { mediaGroups?: { SUBTITLES?: SubtitleGroups } }).mediaGroups?.SUBTITLES;
}

const MASTER = `#EXTM3U
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English (Forced)",LANGUAGE="en",FORCED=YES,URI="subs/en-forced.m3u8"
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="subs/en.m3u8"
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Nameless",URI="subs/und.m3u8"
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Bad",LANGUAGE="not a tag",URI="subs/bad.m3u8"
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="other",NAME="English again",LANGUAGE="en",URI="subs/en.m3u8"
#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC",LANGUAGE="en",INSTREAM-ID="CC1"
#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,SUBTITLES="subs",CLOSED-CAPTIONS="cc"
v.m3u8
`;

describe("hlsSubtitleTracks", () => {
  it("lists each subtitle rendition with a URI once, full ones before forced, without fetching", () => {
    expect(hlsSubtitleTracks(subtitleGroups(MASTER), "https://cdn.example/show/master.m3u8")).toEqual([
      { languageCode: "en", name: "English", url: "https://cdn.example/show/subs/en.m3u8", format: HLS_VTT, autoGenerated: false, translatable: false },
      { languageCode: "und", name: "Nameless", url: "https://cdn.example/show/subs/und.m3u8", format: HLS_VTT, autoGenerated: false, translatable: false },
      { languageCode: "en", name: "English (Forced)", url: "https://cdn.example/show/subs/en-forced.m3u8", format: HLS_VTT, autoGenerated: false, translatable: false },
    ]);
    // each names the video's first segment, whose first timestamp is their time zero
    const timeline = { url: "https://cdn.example/show/v/0.ts", durationSeconds: 4 };
    expect(hlsSubtitleTracks(subtitleGroups(MASTER), "https://cdn.example/show/master.m3u8", timeline).map((t) => t.timeline)).toEqual([timeline, timeline, timeline]);
  });

  const bipbop = path.join(FIXTURES_ROOT, "manifests", "ytdlp-testdata", "m3u8_bipbop_16x9.m3u8");
  it.skipIf(!existsSync(bipbop))("reads Apple's bipbop master (recorded): four languages, forced ones last", async () => {
    const tracks = hlsSubtitleTracks(subtitleGroups(await fs.readFile(bipbop, "utf8")), "https://devstreaming.example/bipbop/bipbop_16x9_variant.m3u8");
    expect(tracks.map((t) => `${t.languageCode} ${t.name}`)).toEqual([
      "en English",
      "fr Français",
      "es Español",
      "ja 日本語",
      "en English (Forced)",
      "fr Français (Forced)",
      "es Español (Forced)",
      "ja 日本語 (Forced)",
    ]);
    expect(tracks[0]!.url).toBe("https://devstreaming.example/bipbop/subtitles/eng/prog_index.m3u8");
  });
});

describe("fetchHlsVttCues", () => {
  const track: CaptionTrack = { languageCode: "en", name: "English", url: "https://cdn.example/subs/en.m3u8", format: HLS_VTT, autoGenerated: false };
  const playlist = (uris: string[], end = true) =>
    `#EXTM3U\n#EXT-X-TARGETDURATION:2\n${uris.map((u) => `#EXTINF:2,\n${u}`).join("\n")}\n${end ? "#EXT-X-ENDLIST\n" : ""}`;
  const serve = (files: Record<string, string>) => {
    const fetched: string[] = [];
    const fetch: OutboundFetch = async (url, init) => {
      fetched.push(String(url));
      const body = files[String(url)];
      // as the outbound fetch does: a body past `maxBytes` is refused
      if (body !== undefined && init?.maxBytes !== undefined && Buffer.byteLength(body) > init.maxBytes) throw new EngineError("upstream.too_large", { detail: String(url) });
      return body === undefined ? new Response("not found", { status: 404 }) : new Response(body, { status: 200 });
    };
    return { fetch, fetched };
  };

  it("reads the playlist and its segments (relative to it) into one cue list, which renders as SRT", async () => {
    const { fetch, fetched } = serve({
      [track.url]: playlist(["0.vtt", "https://cdn.example/subs/1.vtt"]),
      "https://cdn.example/subs/0.vtt": vtt("MPEGTS:900000,LOCAL:00:00:00.000", "00:00:01.000 --> 00:00:02.500\nHello &amp; <b>welcome</b>"),
      "https://cdn.example/subs/1.vtt": vtt("MPEGTS:1080000,LOCAL:00:00:00.000", "00:00:00.000 --> 00:00:00.500\nHello &amp; <b>welcome</b>", "00:00:01.000 --> 00:00:01.800\nbye"),
    });
    const cues = await fetchCues(track, fetch);
    expect(fetched).toEqual([track.url, "https://cdn.example/subs/0.vtt", "https://cdn.example/subs/1.vtt"]);
    expect(renderTranscript(cues, "srt")).toBe("1\n00:00:01,000 --> 00:00:02,500\nHello & welcome\n\n2\n00:00:03,000 --> 00:00:03,800\nbye\n");
  });

  it("counts from the video's first timestamp when the track names its first segment, from the first map when that cannot be read", async () => {
    // the video starts 1 s before the first subtitle segment's map
    const video = Buffer.alloc(188 * 2, 0xff);
    // one video PES packet's start, its PTS 810000 (9 s), and a second packet's sync byte
    Buffer.from([0x47, 0x41, 0x00, 0x10, 0, 0, 1, 0xe0, 0, 0, 0x80, 0x80, 5, 0x21, 0x00, 0x31, 0xb8, 0x21]).copy(video);
    video[188] = 0x47;
    expect(firstTsPts(video)).toBe(810_000);
    const timed = { ...track, timeline: { url: "https://cdn.example/v/0.ts" } };
    const files = {
      [track.url]: playlist(["0.vtt"]),
      "https://cdn.example/subs/0.vtt": vtt("MPEGTS:900000,LOCAL:00:00:00.000", "00:00:01.000 --> 00:00:02.000\nhi"),
    };
    const served = serve(files);
    const fetch: OutboundFetch = async (url, init) => (String(url).endsWith(".ts") ? new Response(video, { status: 206 }) : served.fetch(url, init));
    expect(await fetchCues(timed, fetch)).toEqual([{ startMs: 2000, endMs: 3000, text: "hi" }]);
    // the segment answers 404: the first map stands in
    expect(await fetchCues(timed, serve(files).fetch)).toEqual([{ startMs: 1000, endMs: 2000, text: "hi" }]);
  });

  it("refuses a live, missing or empty playlist, a failed segment, and more segments or bytes than it reads", async () => {
    const fails = (files: Record<string, string>) => fetchCues(track, serve(files).fetch);
    await expect(fails({})).rejects.toMatchObject({ code: "transcript.unavailable" });
    await expect(fails({ [track.url]: playlist(["0.vtt"], false), "https://cdn.example/subs/0.vtt": vtt(null) })).rejects.toMatchObject({
      code: "transcript.unavailable",
      detail: expect.stringContaining("live"),
    });
    await expect(fails({ [track.url]: playlist(["0.vtt"]) })).rejects.toMatchObject({ code: "transcript.unavailable", detail: expect.stringContaining("404") });
    await expect(fails({ [track.url]: playlist(["0.vtt"]), "https://cdn.example/subs/0.vtt": vtt(null) })).rejects.toMatchObject({ detail: "caption track has no text" });
    await expect(fails({ [track.url]: "WEBVTT\n\n00:01.000 --> 00:02.000\nnot a playlist\n" })).rejects.toMatchObject({ code: "transcript.unavailable" });

    const many = serve({ [track.url]: playlist(Array.from({ length: MAX_SUBTITLE_SEGMENTS + 1 }, (_, i) => `${i}.vtt`)) });
    await expect(fetchHlsVttCues(track, many.fetch)).rejects.toMatchObject({ code: "upstream.too_large", message: expect.stringContaining("20,000 parts") });
    expect(many.fetched).toEqual([track.url]);

    const big = vtt(null, `00:00:00.000 --> 00:00:01.000\n${"x".repeat(MAX_SUBTITLE_BYTES / 2)}`);
    const heavy = serve({ [track.url]: playlist(["0.vtt", "1.vtt", "2.vtt"]), "https://cdn.example/subs/0.vtt": big, "https://cdn.example/subs/1.vtt": big, "https://cdn.example/subs/2.vtt": big });
    await expect(fetchHlsVttCues(track, heavy.fetch)).rejects.toMatchObject({ code: "upstream.too_large", message: expect.stringContaining("10 MB") });
    // one segment past the cap alone is refused as it is read, with the same words; no segment is started after it
    const huge = vtt(null, `00:00:00.000 --> 00:00:01.000\n${"x".repeat(MAX_SUBTITLE_BYTES)}`);
    const segments = Array.from({ length: 40 }, (_, i) => `${i}.vtt`);
    const one = serve({ [track.url]: playlist(segments), ...Object.fromEntries(segments.map((s, i) => [`https://cdn.example/subs/${s}`, i === 0 ? huge : vtt(null)])) });
    await expect(fetchHlsVttCues(track, one.fetch)).rejects.toMatchObject({ code: "upstream.too_large", message: expect.stringContaining("10 MB") });
    expect(one.fetched.length).toBeLessThan(10);
  });
});
