/**
 * Issue 31 §3 on a platform read through yt-dlp: a stand-in yt-dlp describes a Vimeo video whose
 * `subtitles` and `automatic_captions` name caption files on a caption host (a local server,
 * reached through OUTBOUND_HOST_MAP like any upstream). Resolve lists one track per language;
 * a Pro caller downloads German SRT and speech recognition's French VTT, anyone the English TXT
 * transcript, each converted from the file our own fetch read at its signed URL. A caption URL on
 * a private address is refused by the SSRF guard before any request leaves.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller, FormatId } from "#engine/types.ts";
import { otherPlatformDocuments } from "#tests/mocks/ytdlp.ts";
import { dlPath, get, serveDownloads } from "../engine-core/engine-fixture.ts";
import { ANONYMOUS, useFakeYtdlpBench, type EngineWithTools } from "./helpers.ts";

const CDN = "https://media.cdn.test";
/** the caption host the document names, mapped to the local caption server */
const CAPTIONS = "https://captions.vimeocdn.test";
const LINK = "https://vimeo.com/123456789";
const PRO: Caller = { kind: "premium", plan: "pro" };

// Files as Vimeo's text tracks and a SubRip export look: a header, cue settings, tags, CRLF.
const FILES: Record<string, string> = {
  "/texttrack/en.vtt": "WEBVTT\n\n1\n00:00:00.500 --> 00:00:02.000 line:85%\nThe tide comes in at <i>dusk</i>.\n\n2\n00:00:02.000 --> 00:00:04.000\nBoats &amp; gulls return\nto the harbour.\n\n3\n00:00:08.000 --> 00:00:09.500\nGood night.\n",
  "/texttrack/de.srt": "1\r\n00:00:00,500 --> 00:00:02,000\r\nDie Flut kommt in der Dämmerung.\r\n\r\n2\r\n00:00:02,000 --> 00:00:04,000\r\nBoote und Möwen kehren zurück.\r\n",
  "/texttrack/fr-auto.vtt": "WEBVTT\n\n00:00.400 --> 00:01.900\nla marée monte au crépuscule\n",
};

const requests: string[] = [];
const captionServer = http.createServer((req, res) => {
  requests.push(req.url ?? "");
  const body = FILES[new URL(req.url ?? "/", "http://x").pathname];
  if (body === undefined) return void res.writeHead(404).end();
  res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(body);
});
let captionOrigin = "";

const bench = useFakeYtdlpBench(["*.cdn.test"]);

function vimeoWithCaptions(captionBase: string): Record<string, unknown> {
  return {
    ...otherPlatformDocuments(CDN)["vimeo.com"],
    subtitles: {
      en: [{ ext: "vtt", url: `${captionBase}/texttrack/en.vtt?token=sig-en`, name: "English" }],
      de: [
        { ext: "srt", url: `${captionBase}/texttrack/de.srt?token=sig-de` },
        { ext: "dfxp", url: `${captionBase}/texttrack/de.dfxp?token=sig-de` },
      ],
    },
    automatic_captions: {
      "en-x-autogen": [{ ext: "vtt", url: `${captionBase}/texttrack/en-auto.vtt?token=sig-en-auto` }],
      "fr-x-autogen": [{ ext: "vtt", url: `${captionBase}/texttrack/fr-auto.vtt?token=sig-fr` }],
    },
  };
}

beforeAll(async () => {
  await new Promise<void>((r) => captionServer.listen(0, "127.0.0.1", r));
  captionOrigin = `http://127.0.0.1:${(captionServer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => captionServer.close(() => r())));

async function download(fixture: EngineWithTools, format: FormatId, caller: Caller, language?: string): Promise<{ filename: string; status: number; text: string }> {
  const created = await fixture.engine.createDownload({ url: LINK, format, caller, ip: "203.0.113.9", ...(language ? { language } : {}) });
  const server = await serveDownloads(fixture.engine);
  try {
    const res = await get(`${server.origin}${dlPath(created.downloadUrl)}`);
    return { filename: created.filename, status: res.status, text: res.body.toString("utf8") };
  } finally {
    await server.close();
  }
}

describe("subtitles of a video read through yt-dlp", () => {
  let fixture: EngineWithTools;
  beforeAll(async () => {
    ({ fixture } = await bench.engineWith({ type: "json", document: vimeoWithCaptions(CAPTIONS) }, { extraHostMap: `captions.vimeocdn.test=${captionOrigin}` }));
  });

  it("resolve lists one track per language, the uploader's before speech recognition's", async () => {
    const answer = await fixture.engine.resolve(LINK, ANONYMOUS);
    expect(answer.video.platform).toBe("vimeo");
    expect(answer.subtitles).toEqual([
      { language: "en", name: "English", auto: false, translatable: false },
      { language: "de", name: "German", auto: false, translatable: false },
      { language: "fr", name: "French", auto: true, translatable: false },
    ]);
    expect(answer.subtitleTranslations).toEqual([]);
    const byId = Object.fromEntries(answer.formats.map((f) => [f.id, f]));
    expect(byId["transcript"]).toMatchObject({ available: true, premium: false });
    expect(byId["srt"]).toMatchObject({ available: true, premium: true });
  });

  it("a Pro caller gets German SRT and French VTT, converted from the files fetched at their signed URLs", async () => {
    const german = await download(fixture, "srt", PRO, "de");
    expect(german.status).toBe(200);
    expect(german.filename).toBe("Harbour at dusk.de.srt");
    expect(german.text).toBe("1\n00:00:00,500 --> 00:00:02,000\nDie Flut kommt in der Dämmerung.\n\n2\n00:00:02,000 --> 00:00:04,000\nBoote und Möwen kehren zurück.\n");
    expect(requests).toContain("/texttrack/de.srt?token=sig-de");

    const french = await download(fixture, "vtt", PRO, "fr");
    expect(french.status).toBe(200);
    expect(french.text).toBe("WEBVTT\n\n00:00:00.400 --> 00:00:01.900\nla marée monte au crépuscule\n");
    expect(requests).toContain("/texttrack/fr-auto.vtt?token=sig-fr");
  });

  it("anyone gets the TXT transcript from the English track; SRT stays a paid format", async () => {
    const txt = await download(fixture, "transcript", ANONYMOUS);
    expect(txt.status).toBe(200);
    expect(txt.filename).toBe("Harbouratdusk-transcript.txt");
    expect(txt.text).toBe("The tide comes in at dusk. Boats & gulls return to the harbour.\n\nGood night.\n");
    await expect(fixture.engine.createDownload({ url: LINK, format: "srt", caller: ANONYMOUS, ip: "203.0.113.9" })).rejects.toMatchObject({ code: "format.premium" });
    await expect(download(fixture, "srt", PRO, "it")).rejects.toMatchObject({ code: "format.unavailable" });
  });
});

describe("a caption URL on a private address", () => {
  it("is refused by the SSRF guard: no request reaches it and no transcript is served", async () => {
    const { fixture } = await bench.engineWith({ type: "json", document: vimeoWithCaptions(captionOrigin) });
    const before = requests.length;
    const answer = await fixture.engine.resolve(LINK, ANONYMOUS);
    expect(answer.subtitles.map((s) => s.language)).toEqual(["en", "de", "fr"]);
    const txt = await download(fixture, "transcript", ANONYMOUS);
    expect(txt.status).toBe(400);
    expect(JSON.parse(txt.text)).toMatchObject({ error: { code: "link.blocked_address" } });
    expect(requests.length).toBe(before);
  });
});
