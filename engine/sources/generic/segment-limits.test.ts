import { describe, expect, it } from "vitest";
import { resolveDash } from "./dash.ts";
import { mediaPlaylist, parseM3u8 } from "./hls.ts";
import { checkPlaylistText, isoSeconds, MAX_PLAYLIST_SEGMENTS } from "./segment-limits.ts";

/** issue 27, finding 4: one link may describe only so many segments */
const playlist = (count: number) => {
  const lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:4"];
  for (let i = 0; i < count; i++) lines.push("#EXTINF:4.0,", `s${i}.ts`);
  lines.push("#EXT-X-ENDLIST");
  return lines.join("\n");
};

const mpd = (template: string, duration = "PT1000H", representations = 1) =>
  `<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="${duration}" minBufferTime="PT2S"><Period><AdaptationSet mimeType="video/mp4" codecs="avc1.4d401f">${template}${Array.from(
    { length: representations },
    (_, i) => `<Representation id="v${i}" bandwidth="${100000 + i}" width="640" height="360"/>`,
  ).join("")}</AdaptationSet></Period></MPD>`;

describe("segments per link", () => {
  it("a playlist of the limit is read; one more segment is refused with a clear message", () => {
    expect(mediaPlaylist(parseM3u8(playlist(MAX_PLAYLIST_SEGMENTS)), "https://cdn.example/v.m3u8").segments).toHaveLength(MAX_PLAYLIST_SEGMENTS);
    const failure = (() => {
      try {
        checkPlaylistText(playlist(MAX_PLAYLIST_SEGMENTS + 1), "https://cdn.example/v.m3u8");
      } catch (err) {
        return err;
      }
      return null;
    })();
    expect(failure).toMatchObject({ code: "upstream.too_large", message: "This video is split into more than 20,000 parts, more than this server downloads." });
  });

  it("a tiny DASH manifest that would expand into millions of segments is refused before it is parsed", () => {
    const started = performance.now();
    expect(() => resolveDash(mpd('<SegmentTemplate timescale="1000" duration="100" media="s$Number$.m4s" initialization="i.mp4"/>'), "https://cdn.example/m.mpd")).toThrow(
      expect.objectContaining({ code: "upstream.too_large" }),
    );
    expect(() => resolveDash(mpd('<SegmentTemplate timescale="1000" media="s$Time$.m4s"><SegmentTimeline><S t="0" d="100" r="40000000"/></SegmentTimeline></SegmentTemplate>'), "https://cdn.example/m.mpd")).toThrow(
      expect.objectContaining({ code: "upstream.too_large" }),
    );
    // within the limit per representation, past it for the link as a whole
    expect(() => resolveDash(mpd('<SegmentTemplate timescale="1" duration="4" media="s$Number$.m4s" initialization="i.mp4"/>', "PT20H", 8), "https://cdn.example/m.mpd")).toThrow(
      expect.objectContaining({ code: "upstream.too_large" }),
    );
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("an ordinary long DASH manifest is read", () => {
    const result = resolveDash(mpd('<SegmentTemplate timescale="90000" duration="360000" media="s$Number$.m4s" initialization="i.mp4"/>', "PT3H", 4), "https://cdn.example/m.mpd");
    expect(result.streams).toHaveLength(4);
    const first = result.streams[0]!.transport;
    expect(first.type === "segments" && first.segments.length).toBe(2700);
  });

  it("reads ISO 8601 durations", () => {
    expect(isoSeconds("PT1H2M3.5S")).toBe(3723.5);
    expect(isoSeconds("P1DT2H")).toBe(93_600);
    expect(isoSeconds("PT0S")).toBe(0);
    expect(isoSeconds("soon")).toBeNull();
  });
});
