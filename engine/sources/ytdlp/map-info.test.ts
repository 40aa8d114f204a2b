import { describe, expect, it } from "vitest";
import { classifyFailure, errorLine } from "./classify.ts";
import { capToPlatform, formatsOf, parseInfo, routeFormat, type YtdlpFormat } from "./map-info.ts";

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
