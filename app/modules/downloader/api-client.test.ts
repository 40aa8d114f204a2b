import { describe, expect, it } from "vitest";
import { ApiError, FRIENDLY_MESSAGES, RESOLVE_FALLBACK_MESSAGE, isRetryable, requestBulkDownload, requestDownload, resolveErrorMessage, resolveVideo } from "./api-client.ts";

function respond(status: number, body: unknown, contentType = "application/json") {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": contentType } });
  }) as unknown as typeof fetch;
  return { calls, fetchFn };
}

describe("API client", () => {
  it("posts the link to /api/v1/resolve and returns video and formats", async () => {
    const { calls, fetchFn } = respond(200, { video: { id: "vidfetchAll" }, formats: [] });
    const r = await resolveVideo("https://youtu.be/vidfetchAll", { fetchFn });
    expect(r.video?.id).toBe("vidfetchAll");
    expect(calls[0]!.url).toBe("/api/v1/resolve");
    expect(calls[0]!.init.method).toBe("POST");
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ url: "https://youtu.be/vidfetchAll" });
  });

  it("posts url and format to /api/v1/downloads", async () => {
    const { calls, fetchFn } = respond(200, { id: "a", downloadUrl: "/api/v1/dl/x", filename: "f.mp3", expiresAt: "t", bytes: null });
    const t = await requestDownload("https://youtu.be/vidfetchAll", "mp3-128", { fetchFn });
    expect(t.downloadUrl).toBe("/api/v1/dl/x");
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ url: "https://youtu.be/vidfetchAll", format: "mp3-128" });
  });

  it("posts a subtitle download's language, and no language key without one", async () => {
    const { calls, fetchFn } = respond(200, { id: "a", downloadUrl: "/api/v1/dl/x", filename: "Sample.de.srt", expiresAt: "t", bytes: null });
    await requestDownload("https://youtu.be/vidfetchSub", "srt", { fetchFn, language: "de" });
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ url: "https://youtu.be/vidfetchSub", format: "srt", language: "de" });
    await requestDownload("https://youtu.be/vidfetchSub", "srt", { fetchFn });
    expect(JSON.parse(String(calls[1]!.init.body))).toEqual({ url: "https://youtu.be/vidfetchSub", format: "srt" });
  });

  it("posts tags: false for a bare file, and no tags key otherwise (the server's default is tagged)", async () => {
    const { calls, fetchFn } = respond(200, { id: "a", downloadUrl: "/api/v1/dl/x", filename: "f.mp3", expiresAt: "t", bytes: null });
    await requestDownload("https://youtu.be/vidfetchAll", "mp3-128", { fetchFn, tags: false });
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ url: "https://youtu.be/vidfetchAll", format: "mp3-128", tags: false });
    await requestDownload("https://youtu.be/vidfetchAll", "mp3-128", { fetchFn, tags: true });
    expect(JSON.parse(String(calls[1]!.init.body))).toEqual({ url: "https://youtu.be/vidfetchAll", format: "mp3-128" });
    await requestDownload("https://youtu.be/vidfetchAll", "mp3-128", { fetchFn, profile: "p1", tags: false });
    expect(JSON.parse(String(calls[2]!.init.body))).toEqual({ url: "https://youtu.be/vidfetchAll", profile: "p1", tags: false });
  });

  it("posts a clip's start, end and exact cut beside the format, and nothing of a clip without one", async () => {
    const { calls, fetchFn } = respond(200, { id: "a", downloadUrl: "/api/v1/dl/x", filename: "f.mp4", expiresAt: "t", bytes: null });
    await requestDownload("https://youtu.be/vidfetchAll", "mp4-720", { fetchFn, clip: { start: 62, end: 92, exact: true }, tags: false });
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ url: "https://youtu.be/vidfetchAll", format: "mp4-720", tags: false, start: 62, end: 92, exact: true });
    await requestDownload("https://youtu.be/vidfetchAll", "mp4-720", { fetchFn, clip: null });
    expect(JSON.parse(String(calls[1]!.init.body))).toEqual({ url: "https://youtu.be/vidfetchAll", format: "mp4-720" });
  });

  it("posts normalize and sponsorblock only when on, beside the other media options", async () => {
    const { calls, fetchFn } = respond(200, { id: "a", downloadUrl: "/api/v1/dl/x", filename: "f.mp3", expiresAt: "t", bytes: null });
    const sponsorblock = { categories: ["sponsor" as const, "outro" as const], action: "chapters" as const };
    await requestDownload("https://youtu.be/vidfetchAll", "mp3-128", { fetchFn, normalize: true, sponsorblock });
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ url: "https://youtu.be/vidfetchAll", format: "mp3-128", normalize: true, sponsorblock });
    await requestDownload("https://youtu.be/vidfetchAll", "mp3-128", { fetchFn, normalize: false, sponsorblock: { categories: [], action: "cut" } });
    expect(JSON.parse(String(calls[1]!.init.body))).toEqual({ url: "https://youtu.be/vidfetchAll", format: "mp3-128" });
  });

  it("posts subtitles in the video and a split by chapter only when chosen", async () => {
    const { calls, fetchFn } = respond(200, { id: "a", downloadUrl: "/api/v1/dl/x", filename: "Sample (720p) - chapters.zip", expiresAt: "t", bytes: null });
    await requestDownload("https://youtu.be/vidfetchCap", "mp4-720", { fetchFn, subtitles: { language: "de", mode: "burn" }, chapters: "split" });
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ url: "https://youtu.be/vidfetchCap", format: "mp4-720", subtitles: { language: "de", mode: "burn" }, chapters: "split" });
    await requestDownload("https://youtu.be/vidfetchCap", "mp4-720", { fetchFn, subtitles: null, chapters: undefined });
    expect(JSON.parse(String(calls[1]!.init.body))).toEqual({ url: "https://youtu.be/vidfetchCap", format: "mp4-720" });
  });

  it("posts a ZIP's links, format and name; without a name, none is sent", async () => {
    const { calls, fetchFn } = respond(200, { id: "b", downloadUrl: "/api/v1/dl/zip.x", filename: "VidFetch sample playlist.zip", expiresAt: "t", bytes: null });
    await requestBulkDownload(["https://youtu.be/vidfetchAll", "https://youtu.be/vidfetchCap"], "mp4-360", { fetchFn, name: "VidFetch sample playlist" });
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ urls: ["https://youtu.be/vidfetchAll", "https://youtu.be/vidfetchCap"], format: "mp4-360", name: "VidFetch sample playlist" });
    await requestBulkDownload(["https://youtu.be/vidfetchAll"], "mp4-360", { fetchFn });
    expect(JSON.parse(String(calls[1]!.init.body))).toEqual({ urls: ["https://youtu.be/vidfetchAll"], format: "mp4-360" });
  });

  it("carries the engine's code and wording on failure", async () => {
    const { fetchFn } = respond(404, { error: { code: "video.not_found", message: "Video not found" } });
    const err = await resolveVideo("https://youtu.be/vidfetchXXX", { fetchFn }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: "video.not_found", message: "Video not found", status: 404 });
    expect(resolveErrorMessage(err)).toBe("Video not found");
  });

  it("falls back to the friendly wording when the body is not the API's", async () => {
    const { fetchFn } = respond(502, "<html>Bad gateway</html>", "text/html");
    const err = await resolveVideo("u", { fetchFn }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "http.502", message: FRIENDLY_MESSAGES.server });
    const { fetchFn: limited } = respond(429, "");
    expect(await resolveVideo("u", { fetchFn: limited }).catch((e: unknown) => (e as Error).message)).toBe(FRIENDLY_MESSAGES.rateLimited);
  });

  it("turns a network failure into the friendly connection message", async () => {
    const fetchFn = (async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof fetch;
    const err = await resolveVideo("u", { fetchFn }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 0, message: FRIENDLY_MESSAGES.network });
  });

  it("uses the spec's fallback when a failure has no message", () => {
    expect(resolveErrorMessage("weird")).toBe(RESOLVE_FALLBACK_MESSAGE);
    expect(RESOLVE_FALLBACK_MESSAGE).toBe("Could not process this video URL. Please try again.");
  });

  it("retries only failures another attempt could change", () => {
    expect(isRetryable(new ApiError("download.failed", "x", 500))).toBe(true);
    expect(isRetryable(new ApiError("client.network", "x", 0))).toBe(true);
    expect(isRetryable(new ApiError("download.busy", "x", 503))).toBe(true);
    expect(isRetryable(new ApiError("download.rate_limited", "x", 429))).toBe(true);
    expect(isRetryable(new ApiError("format.premium", "x", 403))).toBe(false);
    expect(isRetryable(new ApiError("format.unavailable", "x", 422))).toBe(false);
    expect(isRetryable(new Error("unknown"))).toBe(true);
  });
});
