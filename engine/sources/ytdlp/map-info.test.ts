import { describe, expect, it } from "vitest";
import { TIKTOK_CHAIN_TOKEN, tiktokDocument } from "#tests/mocks/ytdlp-tiktok.ts";
import { cookieHeaderFor } from "../../outbound/upstream-request.ts";
import { classifyFailure, errorLine } from "./classify.ts";
import { capToPlatform, captionsOf, chaptersOfInfo, formatsOf, MAX_CAPTION_TRACKS, parseInfo, routeFormat, type YtdlpFormat } from "./map-info.ts";

const format = (f: Partial<YtdlpFormat> & Record<string, unknown>): YtdlpFormat => formatsOf(parseInfo(JSON.stringify({ formats: [{ format_id: "f", ...f }] })))[0]!;

describe("yt-dlp formats onto our streams", () => {
  it("reads codec families from yt-dlp's names, 'none' meaning the track is absent", () => {
    expect(routeFormat(format({ url: "https://cdn.example/v.mp4", ext: "mp4", protocol: "https", vcodec: "avc1.64001F", acodec: "none", height: 720, width: 1280, tbr: 1500 }))).toMatchObject({
      type: "direct",
      codecsKnown: true,
      stream: { id: "ytdlp-f", kind: "video", vcodec: "h264", container: "mp4", height: 720, bitrate: 1_500_000, contentLength: null },
    });
    expect(routeFormat(format({ url: "https://cdn.example/a.m4a", ext: "m4a", vcodec: "none", acodec: "mp4a.40.2", filesize: 1234 }))).toMatchObject({
      stream: { kind: "audio", acodec: "aac", container: "m4a", contentLength: 1234 },
    });
    expect(routeFormat(format({ url: "https://cdn.example/p.webm", ext: "webm", vcodec: "vp9", acodec: "opus" }))).toMatchObject({ stream: { kind: "progressive", vcodec: "vp9", acodec: "opus" } });
  });

  it("keeps yt-dlp's request size for a site that throttles long requests, and none when it names none", () => {
    const youtube = routeFormat(format({ url: "https://rr1.googlevideo.example/videoplayback", ext: "mp4", vcodec: "avc1.4d401f", acodec: "none", downloader_options: { http_chunk_size: 10485760 } }));
    expect(youtube).toMatchObject({ stream: { transport: { type: "direct", maxRequestBytes: 10485760 } } });
    const plain = routeFormat(format({ url: "https://cdn.example/v.mp4", ext: "mp4", vcodec: "avc1.4d401f", acodec: "mp4a.40.2" }));
    expect(plain).toMatchObject({ stream: { transport: { type: "direct" } } });
    expect(plain.type === "direct" && plain.stream.transport).toEqual({ type: "direct" });
  });

  it("marks a file without codec information for probing", () => {
    expect(routeFormat(format({ url: "https://cdn.example/sd.mp4", ext: "mp4" }))).toMatchObject({ type: "direct", codecsKnown: false, stream: { kind: "progressive" } });
  });

  it("sends HLS and DASH formats to their manifest", () => {
    expect(routeFormat(format({ url: "https://cdn.example/v/720.m3u8", manifest_url: "https://cdn.example/master.m3u8", protocol: "m3u8_native" }))).toEqual({ type: "manifest", manifestUrl: "https://cdn.example/master.m3u8" });
    expect(routeFormat(format({ protocol: "http_dash_segments", manifest_url: "https://cdn.example/m.mpd" }))).toEqual({ type: "manifest", manifestUrl: "https://cdn.example/m.mpd" });
  });

  it.each([
    [{ url: "https://cdn.example/drm.mp4", has_drm: true, vcodec: "avc1", acodec: "mp4a.40.2" }, "DRM"],
    [{ url: "https://cdn.example/sb", ext: "mhtml", protocol: "mhtml" }, "protocol mhtml"],
    [{ url: "file:///etc/passwd", ext: "mp4", protocol: "https" }, "URL scheme file:"],
    [{ url: "rtmp://cdn.example/live", protocol: "rtmp" }, "protocol rtmp"],
    [{ url: "https://cdn.example/img.jpg", ext: "jpg", vcodec: "none", acodec: "none" }, "jpg is not media"],
    [{ protocol: "m3u8_native", url: "https://cdn.example/x.m3u8" }, "m3u8_native without a manifest URL"],
  ])("leaves out %o (%s)", (f, reason) => {
    expect(routeFormat(format(f))).toEqual({ type: "skip", reason });
  });
});

describe("what a format's requests need (yt-dlp's http_headers and cookies)", () => {
  const MEDIA = "https://v16-webapp-prime.tiktok.com/video/tos/useast2a/tos-useast2a-ve-0068c001/oQx/?a=1988&expire=1764300000&signature=abc";
  const streamOf = (doc: Record<string, unknown>) => {
    const route = routeFormat(formatsOf(parseInfo(JSON.stringify(doc)))[0]!);
    if (route.type !== "direct") throw new Error(`expected a direct format, got ${route.type}`);
    return route.stream;
  };
  const NOW = Date.UTC(2026, 10, 27);

  it("current yt-dlp: the Referer and yt-dlp's headers are kept, the cookies scoped to the Domain yt-dlp names", () => {
    const stream = streamOf(tiktokDocument({ mediaUrl: MEDIA, style: "current" }));
    expect(stream.request?.headers).toEqual({
      "user-agent": expect.stringContaining("Chrome/"),
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      "accept-language": "en-us,en;q=0.5",
      "sec-fetch-mode": "navigate",
      referer: "https://www.tiktok.com/@someone/video/7301234567890123456",
    });
    expect(stream.request?.cookies).toContainEqual({ name: "tt_chain_token", value: TIKTOK_CHAIN_TOKEN, domain: "tiktok.com", hostOnly: false, path: "/", secure: true, expires: 1900000000 });
    // the CDN gets TikTok's domain cookies and not the page host's own; another host gets none
    expect(cookieHeaderFor(stream.request!.cookies!, new URL(MEDIA), NOW)).toBe(`tt_chain_token=${TIKTOK_CHAIN_TOKEN}; ttwid=1%7Cq0x8`);
    expect(cookieHeaderFor(stream.request!.cookies!, new URL("https://media.elsewhere.example/v.mp4"), NOW)).toBeNull();
  });

  it("yt-dlp 2023.03: the Cookie inside http_headers goes to the format's host only, and is no header of ours", () => {
    const stream = streamOf(tiktokDocument({ mediaUrl: MEDIA, style: "2023.03" }));
    expect(stream.request?.headers?.cookie).toBeUndefined();
    expect(stream.request?.headers?.referer).toBe("https://www.tiktok.com/@someone/video/7301234567890123456");
    expect(cookieHeaderFor(stream.request!.cookies!, new URL(MEDIA), NOW)).toBe(`tt_chain_token=${TIKTOK_CHAIN_TOKEN}; ttwid=1%7Cq0x8`);
    expect(cookieHeaderFor(stream.request!.cookies!, new URL("https://v19-webapp.tiktok.com/v.mp4"), NOW)).toBeNull();
  });

  it("a manifest keeps the request of its format; a single-file document its own; a format that needs nothing has none", () => {
    const hls = { format_id: "hls", url: "https://cdn.example/720.m3u8", manifest_url: "https://cdn.example/master.m3u8", protocol: "m3u8_native", http_headers: { Referer: "https://site.example/" }, cookies: "k=v; Domain=.cdn.example; Path=/" };
    expect(routeFormat(format(hls))).toMatchObject({ type: "manifest", request: { headers: { referer: "https://site.example/" }, cookies: [{ name: "k", domain: "cdn.example" }] } });
    const single = parseInfo(JSON.stringify({ url: "https://cdn.example/v.mp4", ext: "mp4", vcodec: "avc1", acodec: "mp4a.40.2", http_headers: { Referer: "https://page.example/" } }));
    expect(routeFormat(formatsOf(single)[0]!)).toMatchObject({ stream: { request: { headers: { referer: "https://page.example/" } } } });
    expect(streamOf({ formats: [{ format_id: "p", url: "https://cdn.example/p.mp4", ext: "mp4", vcodec: "avc1", acodec: "mp4a.40.2" }] })).not.toHaveProperty("request");
  });
});

describe("yt-dlp's documents", () => {
  it("takes the first video of a playlist and refuses live streams", () => {
    const doc = { _type: "playlist", entries: [{ title: "empty" }, { title: "second", formats: [{ format_id: "1", url: "https://cdn.example/a.mp4" }] }] };
    expect(parseInfo(JSON.stringify(doc)).title).toBe("second");
    expect(() => parseInfo(JSON.stringify({ is_live: true, formats: [] }))).toThrow(expect.objectContaining({ code: "video.live" }));
    expect(() => parseInfo("[1,2")).toThrow(expect.objectContaining({ code: "upstream.api_error" }));
    expect(() => parseInfo('"a string"')).toThrow(expect.objectContaining({ code: "upstream.api_error" }));
  });

  it("reads the last ERROR line without yt-dlp's extractor prefix", () => {
    const stderr = "WARNING: [facebook] something\nERROR: [facebook] 1234567890: This video is private\n";
    expect(errorLine(stderr)).toBe("This video is private");
    expect(classifyFailure(stderr)).toBe("video.login_required");
    expect(classifyFailure("ERROR: Unsupported URL: https://example.com/")).toBe("link.unsupported");
    expect(classifyFailure("Traceback (most recent call last):")).toBe("upstream.fetch_failed");
  });
});

describe("a platform's quality cap", () => {
  const v = (height: number | undefined) => ({ kind: "video", height, id: `v${height}` });
  const a = { kind: "audio", id: "a" };

  it("offers Facebook up to 720p, as its card says, and other platforms as served", () => {
    const streams = [v(360), v(720), v(1080), a];
    expect(capToPlatform("facebook", streams).map((s) => s.id)).toEqual(["v360", "v720", "a"]);
    expect(capToPlatform("instagram", streams)).toEqual(streams);
    expect(capToPlatform(undefined, streams)).toEqual(streams);
  });

  it("keeps a rendition of unknown height, and a video served only above the cap", () => {
    expect(capToPlatform("facebook", [v(undefined), v(1080), a]).map((s) => s.id)).toEqual(["vundefined", "a"]);
    expect(capToPlatform("facebook", [v(1080), a]).map((s) => s.id)).toEqual(["v1080", "a"]);
  });
});

describe("yt-dlp's caption tracks", () => {
  const captions = (doc: Record<string, unknown>) => captionsOf(parseInfo(JSON.stringify({ formats: [], ...doc })));
  /** one language's entry as yt-dlp lists a YouTube video's: one file per timedtext format */
  const timedtext = (query: string, name: string) =>
    ["json3", "srv1", "srv2", "srv3", "ttml", "vtt"].map((ext) => ({ ext, url: `https://www.youtube.com/api/timedtext?v=M4gD1WSo5mA&${query}&fmt=${ext}`, name }));

  it("reads a YouTube video's uploader tracks and its speech recognition in the video's own language, not the machine translations", () => {
    const tracks = captions({
      subtitles: {
        de: timedtext("lang=de", "German"),
        live_chat: [{ url: "https://www.youtube.com/watch?v=M4gD1WSo5mA", video_id: "M4gD1WSo5mA", ext: "json", protocol: "youtube_live_chat_replay" }],
      },
      automatic_captions: {
        ab: timedtext("caps=asr&kind=asr&lang=en&tlang=ab", "Abkhazian"),
        de: timedtext("caps=asr&kind=asr&lang=en&tlang=de", "German"),
        "en-orig": timedtext("caps=asr&kind=asr&lang=en", "English (Original)"),
        en: timedtext("caps=asr&kind=asr&lang=en&tlang=en", "English"),
        fr: timedtext("caps=asr&kind=asr&lang=en&tlang=fr", "French"),
      },
    });
    expect(tracks).toEqual([
      { languageCode: "de", name: "German", url: "https://www.youtube.com/api/timedtext?v=M4gD1WSo5mA&lang=de&fmt=json3", format: "json3", autoGenerated: false, translatable: false },
      { languageCode: "en", name: "English (Original)", url: "https://www.youtube.com/api/timedtext?v=M4gD1WSo5mA&caps=asr&kind=asr&lang=en&fmt=json3", format: "json3", autoGenerated: true, translatable: false },
    ]);
  });

  it("takes WebVTT before SubRip and TTML, and a manual track over speech recognition in the same language", () => {
    const tracks = captions({
      subtitles: {
        en: [
          { ext: "ttml", url: "https://captions.example/en.ttml" },
          { ext: "srt", url: "https://captions.example/en.srt" },
          { ext: "vtt", url: "https://captions.example/en.vtt?token=abc" },
        ],
        fr: [{ ext: "srt", url: "https://captions.example/fr.srt", name: "Français" }],
      },
      // Vimeo marks its speech recognition with a private-use suffix
      automatic_captions: { "en-x-autogen": [{ ext: "vtt", url: "https://captions.example/en-auto.vtt" }], "es-x-autogen": [{ ext: "vtt", url: "https://captions.example/es-auto.vtt" }] },
    });
    expect(tracks.map((t) => [t.languageCode, t.name, t.format, t.url, t.autoGenerated])).toEqual([
      ["en", "English", "vtt", "https://captions.example/en.vtt?token=abc", false],
      ["fr", "Français", "srt", "https://captions.example/fr.srt", false],
      ["es", "Spanish", "vtt", "https://captions.example/es-auto.vtt", true],
    ]);
  });

  it("takes the format from the file name when the extractor names none, and keeps a platform's regional tag", () => {
    const tracks = captions({
      subtitles: { en: [{ url: "https://static2.dmcdn.example/static/video/123/subtitle_en.vtt" }], "eng-US": [{ ext: "vtt", url: "https://v16.tiktokcdn.example/sub?lang=eng-US" }] },
    });
    expect(tracks.map((t) => [t.languageCode, t.format])).toEqual([
      ["en", "vtt"],
      ["eng-US", "vtt"],
    ]);
  });

  it("carries what yt-dlp's requests for the file carry: its own headers, else the document's, and the cookies of every format (scoped, without a Cookie header)", () => {
    const tracks = captions({
      http_headers: { Referer: "https://www.tiktok.com/", Cookie: "old=1", Authorization: "Bearer x" },
      formats: [
        { format_id: "a", url: "https://v16.tiktokcdn.example/a.mp4", cookies: "tt_chain_token=t0k; Domain=.tiktokcdn.example; Path=/; Secure; Expires=1900000000" },
        // yt-dlp 2023.03: a Cookie header for this format's host only
        { format_id: "b", url: "https://v19.tiktokcdn.example/b.mp4", http_headers: { Cookie: "ttwid=w1d" } },
        { format_id: "c", url: "https://v16.tiktokcdn.example/c.mp4", cookies: "tt_chain_token=t0k; Domain=.tiktokcdn.example; Path=/; Secure; Expires=1900000000" },
      ],
      subtitles: {
        en: [{ ext: "vtt", url: "https://v16.tiktokcdn.example/en.vtt", http_headers: { Referer: "https://www.tiktok.com/@a/video/1", "X-Forwarded-For": "10.0.0.1" } }],
        de: [{ ext: "vtt", url: "https://captions.example/de.vtt" }],
      },
    });
    const cookies = [
      { name: "tt_chain_token", value: "t0k", domain: "tiktokcdn.example", hostOnly: false, path: "/", secure: true, expires: 1900000000 },
      { name: "ttwid", value: "w1d", domain: "v19.tiktokcdn.example", hostOnly: true, path: "/", secure: true, expires: null },
    ];
    expect(tracks.map((t) => [t.languageCode, t.request])).toEqual([
      ["en", { headers: { referer: "https://www.tiktok.com/@a/video/1" }, cookies }],
      ["de", { headers: { referer: "https://www.tiktok.com/" }, cookies }],
    ]);
    // nothing to carry: no request
    expect(captions({ subtitles: { en: [{ ext: "vtt", url: "https://captions.example/en.vtt" }] } })[0]?.request).toBeUndefined();
  });

  it("leaves out what is not one readable file over http(s): HLS segment playlists, inline data, other schemes and formats", () => {
    expect(
      captions({
        subtitles: {
          en: [{ ext: "vtt", url: "https://video.twimg.example/ext_tw_video/1/pu/pl/subs.m3u8", protocol: "m3u8_native" }],
          de: [{ ext: "vtt", data: "WEBVTT\n\n00:01.000 --> 00:02.000\nHallo" }],
          fr: [{ ext: "vtt", url: "file:///etc/passwd" }],
          es: [{ ext: "dfxp", url: "https://captions.example/es.dfxp" }],
          "not a language": [{ ext: "vtt", url: "https://captions.example/x.vtt" }],
        },
      }),
    ).toEqual([]);
    expect(captions({})).toEqual([]);
    expect(captions({ subtitles: "nonsense", automatic_captions: { en: "nonsense" } })).toEqual([]);
    // one malformed language does not cost the others
    expect(captions({ subtitles: { en: "nonsense", de: [{ ext: "vtt", url: "https://captions.example/de.vtt" }] } }).map((t) => t.languageCode)).toEqual(["de"]);
  });

  it("lists at most MAX_CAPTION_TRACKS, the uploader's first", () => {
    // 120 three-letter tags, as many languages as YouTube's machine translations
    const languages = Array.from({ length: 120 }, (_, i) => `l${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`);
    const auto = Object.fromEntries(languages.map((l) => [l, [{ ext: "vtt", url: `https://captions.example/${l}.vtt` }]]));
    const tracks = captions({ subtitles: { de: [{ ext: "vtt", url: "https://captions.example/de.vtt" }] }, automatic_captions: auto });
    expect(tracks).toHaveLength(MAX_CAPTION_TRACKS);
    expect(tracks[0]).toMatchObject({ languageCode: "de", autoGenerated: false });
  });
});

describe("chaptersOfInfo", () => {
  it("takes yt-dlp's chapters when they cover the video, ending each where the next starts", () => {
    const doc = { chapters: [{ start_time: 0, end_time: 30, title: "Opening" }, { start_time: 30, end_time: 95.5, title: "Main" }, { title: "broken" }] };
    expect(chaptersOfInfo(parseInfo(JSON.stringify(doc)), 95.5)).toEqual([
      { title: "Opening", start: 0, end: 30 },
      { title: "Main", start: 30, end: 95.5 },
    ]);
  });

  it("is null without chapters, or with a list that does not start at 0", () => {
    expect(chaptersOfInfo(parseInfo(JSON.stringify({ title: "t" })), 60)).toBeNull();
    expect(chaptersOfInfo(parseInfo(JSON.stringify({ chapters: [{ start_time: 10, title: "a" }, { start_time: 20, title: "b" }] })), 60)).toBeNull();
  });
});
