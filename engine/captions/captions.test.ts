import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutboundFetch } from "../outbound/outbound-fetch.ts";
import type { CaptionTrack } from "../types.ts";
import { fetchTranscript, pickCaptionTrack, trackUrl } from "./fetch-transcript.ts";
import { decodeEntities, parseTimedText } from "./parse-timedtext.ts";
import { toSrt, toTxt, toVtt } from "./render.ts";

// Small samples in the shapes YouTube serves (json3 with ASR line-break events; srv3; srv1).
const JSON3 = JSON.stringify({
  wireMagic: "pb3",
  pens: [{}],
  wsWinStyles: [{}],
  wpWinPositions: [{}],
  events: [
    { tStartMs: 0, dDurationMs: 4000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
    { tStartMs: 160, dDurationMs: 3840, wWinId: 1, segs: [{ utf8: "the" }, { utf8: " terms", tOffsetMs: 240 }, { utf8: " on", tOffsetMs: 480 }] },
    { tStartMs: 2000, dDurationMs: 2000, wWinId: 1, aAppend: 1, segs: [{ utf8: "\n" }] },
    { tStartMs: 2010, dDurationMs: 4000, wWinId: 1, segs: [{ utf8: "which" }, { utf8: " Tom & Jerry's", tOffsetMs: 300 }] },
    { tStartMs: 9500, dDurationMs: 1500, wWinId: 1, segs: [{ utf8: "new  part" }] },
  ],
});

const SRV3 = `<?xml version="1.0" encoding="utf-8" ?><timedtext format="3">
<body>
<p t="1200" d="2500">Hello &amp; welcome<br/>to the lecture</p>
<p t="3700" d="1800"><s ac="0">copy</s><s t="400" ac="0">right</s></p>
<p t="6000" d="0">   </p>
</body>
</timedtext>`;

const SRV1 = `<?xml version="1.0" encoding="utf-8" ?><transcript><text start="0.5" dur="1.25">It&amp;#39;s &amp;lt;fine&amp;gt;</text><text start="2" dur="1">second line</text></transcript>`;

describe("parseTimedText", () => {
  it("reads json3, skipping window and line-break events", () => {
    const cues = parseTimedText(JSON3);
    expect(cues).toEqual([
      { startMs: 160, endMs: 4000, text: "the terms on" },
      { startMs: 2010, endMs: 6010, text: "which Tom & Jerry's" },
      { startMs: 9500, endMs: 11000, text: "new part" },
    ]);
  });
  it("reads srv3 with <br/> and word spans", () => {
    expect(parseTimedText(SRV3)).toEqual([
      { startMs: 1200, endMs: 3700, text: "Hello & welcome\nto the lecture" },
      { startMs: 3700, endMs: 5500, text: "copyright" },
    ]);
  });
  it("reads srv1 with double-escaped entities", () => {
    expect(parseTimedText(SRV1)).toEqual([
      { startMs: 500, endMs: 1750, text: "It's <fine>" },
      { startMs: 2000, endMs: 3000, text: "second line" },
    ]);
  });
  it("gives no cues for an empty body", () => {
    expect(parseTimedText("")).toEqual([]);
  });
  it("decodes numeric entities", () => {
    expect(decodeEntities("&#8217;&#x2014;&quot;")).toBe("\u2019\u2014\"");
  });
});

// What other platforms serve (through yt-dlp): WebVTT with a header, settings, a NOTE, a cue id,
// voice and timestamp tags; SubRip with CRLF and tags; TTML with clock and offset times.
const VTT = `WEBVTT
Kind: captions
Language: en

NOTE a comment --> not a cue

STYLE
::cue { color: yellow }

intro
00:01.000 --> 00:03.500 align:start position:0%
<v Narrator>Welcome to the <c.yellow>harbour</c></v>

00:00:03.500 --> 00:00:05.000
Tom &amp; Jerry<00:00:04.200><c> ahoy</c>
second line
`;
const SRT = "\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hallo</i> {\\an8}Welt\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\nzweite &amp; Zeile\r\n";
const TTML = `<?xml version="1.0" encoding="utf-8" ?><tt xml:lang="en" xmlns="http://www.w3.org/ns/ttml"><head><styling><style xml:id="s1"/></styling></head><body><div>
<p begin="00:00:00.160" end="00:00:02.010" style="s2">first &amp;amp; line<br />wraps</p>
<p begin="2.5s" dur="1500ms"><span>second</span></p>
</div></body></tt>`;

describe("other platforms' caption files", () => {
  it.each([
    ["WebVTT, skipping the header, NOTE and STYLE blocks and dropping tags", VTT, [[1000, 3500, "Welcome to the harbour"], [3500, 5000, "Tom & Jerry ahoy\nsecond line"]]],
    ["SubRip with a byte-order mark, CRLF lines and tags", SRT, [[1000, 2500, "Hallo Welt"], [3000, 4000, "zweite & Zeile"]]],
    ["TTML with clock and offset times, decoding its text once", TTML, [[160, 2010, "first &amp; line\nwraps"], [2500, 4000, "second"]]],
  ] as const)("reads %s", (_what, body, cues) => {
    expect(parseTimedText(body)).toEqual(cues.map(([startMs, endMs, text]) => ({ startMs, endMs, text })));
  });

  it("gives no cues for a body of none of the shapes", () => {
    expect(parseTimedText("WEBVTT\n\n")).toEqual([]);
    expect(parseTimedText("just some words")).toEqual([]);
  });
});

describe("renderers", () => {
  const cues = parseTimedText(JSON3);
  it("TXT has no timestamps and merges lines, new paragraph after a pause", () => {
    expect(toTxt(cues)).toBe("the terms on which Tom & Jerry's\n\nnew part\n");
    expect(toTxt(parseTimedText(SRV3))).toBe("Hello & welcome to the lecture copyright\n");
  });
  it("SRT numbers cues, uses commas and clamps overlaps", () => {
    expect(toSrt(cues)).toBe(
      "1\n00:00:00,160 --> 00:00:02,010\nthe terms on\n\n2\n00:00:02,010 --> 00:00:06,010\nwhich Tom & Jerry's\n\n3\n00:00:09,500 --> 00:00:11,000\nnew part\n",
    );
  });
  it("VTT has the header, dots and escaped text", () => {
    const vtt = toVtt(cues);
    expect(vtt.startsWith("WEBVTT\n\n00:00:00.160 --> 00:00:02.010\nthe terms on\n")).toBe(true);
    expect(vtt).toContain("which Tom &amp; Jerry's");
  });
  it("gives zero-length cues a readable duration", () => {
    expect(toSrt([{ startMs: 3_600_000, endMs: 3_600_000, text: "x" }])).toBe("1\n01:00:00,000 --> 01:00:02,000\nx\n");
  });
});

describe("fetchTranscript", () => {
  let origin = "";
  const requested: string[] = [];
  const server = createServer((req, res) => {
    requested.push(req.url ?? "");
    const url = new URL(req.url ?? "/", "http://x");
    if (url.searchParams.get("v") === "xml") return void res.end(SRV3);
    if (url.searchParams.get("v") === "empty") return void res.end("");
    if (url.searchParams.get("v") === "gone") return void res.writeHead(404).end();
    if (url.searchParams.get("v") === "vtt") return void res.end(VTT);
    res.setHeader("content-type", "application/json");
    res.end(JSON3);
  });
  const fetch: OutboundFetch = (url, init) => globalThis.fetch(String(url).replace("https://www.youtube.com", origin), init);
  const track = (v: string): CaptionTrack => ({
    languageCode: "en",
    name: "English",
    url: `https://www.youtube.com/api/timedtext?v=${v}&lang=en&fmt=srv3`,
    autoGenerated: false,
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("asks for json3 on the track's own URL", async () => {
    expect(trackUrl(track("a"))).toBe("https://www.youtube.com/api/timedtext?v=a&lang=en&fmt=json3");
    expect(await fetchTranscript(track("a"), "txt", fetch)).toBe("the terms on which Tom & Jerry's\n\nnew part\n");
    expect(requested.at(-1)).toBe("/api/timedtext?v=a&lang=en&fmt=json3");
  });
  it("falls back to XML when the server sends srv3", async () => {
    expect(await fetchTranscript(track("xml"), "srt", fetch)).toContain("00:00:01,200 --> 00:00:03,700\nHello & welcome\nto the lecture");
  });
  it("fetches a track that names its format at its own URL, unchanged, and converts it", async () => {
    const vttTrack: CaptionTrack = { languageCode: "en", name: "English", url: "https://www.youtube.com/subs/en.vtt?v=vtt&sig=abc", autoGenerated: false, format: "vtt" };
    expect(trackUrl(vttTrack)).toBe(vttTrack.url);
    expect(await fetchTranscript(vttTrack, "srt", fetch)).toBe("1\n00:00:01,000 --> 00:00:03,500\nWelcome to the harbour\n\n2\n00:00:03,500 --> 00:00:05,000\nTom & Jerry ahoy\nsecond line\n");
    expect(requested.at(-1)).toBe("/subs/en.vtt?v=vtt&sig=abc");
  });

  it("reports an empty or missing track as unavailable", async () => {
    await expect(fetchTranscript(track("empty"), "txt", fetch)).rejects.toMatchObject({ code: "transcript.unavailable" });
    await expect(fetchTranscript(track("gone"), "vtt", fetch)).rejects.toMatchObject({ code: "transcript.unavailable" });
  });
});

describe("pickCaptionTrack", () => {
  const t = (languageCode: string, autoGenerated: boolean): CaptionTrack => ({ languageCode, name: languageCode, url: "u", autoGenerated });
  it("prefers a manual English track, then any manual, then ASR", () => {
    expect(pickCaptionTrack([t("en", true), t("de", false), t("en-GB", false)])).toEqual(t("en-GB", false));
    expect(pickCaptionTrack([t("en", true), t("de", false)])).toEqual(t("de", false));
    expect(pickCaptionTrack([t("fr", true), t("en", true)])).toEqual(t("en", true));
    expect(pickCaptionTrack([])).toBeUndefined();
  });
});
