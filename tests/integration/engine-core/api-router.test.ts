import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyDownload } from "#engine/serve/signed-links.ts";
import { createApiRouter } from "#server/api/router.ts";
import { get, startEngineFixture, VIDEO_ID, WATCH_URL, type EngineFixture } from "./engine-fixture.ts";
import { silentLogger } from "./helpers.ts";

let fx: EngineFixture;
let origin: string;
let server: http.Server;

beforeAll(async () => {
  const app = express();
  // publicUrl is filled in below, once the port is known
  fx = await startEngineFixture({ config: { publicUrl: "http://127.0.0.1:1", limits: { downloadsPerIpPerHour: 8, maxConcurrentDownloads: 50 } } });
  app.use("/api/v1", createApiRouter({ engine: fx.engine, logger: silentLogger }));
  server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await fx.close();
});

const post = (path: string, body: unknown) =>
  fetch(`${origin}/api/v1${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });

describe("API v1", () => {
  it("POST /resolve gives details and formats", async () => {
    const res = await post("/resolve", { url: `https://youtu.be/${VIDEO_ID}` });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { video: { id: string }; formats: Array<{ id: string; available: boolean; bytes: number | null }> };
    expect(json.video.id).toBe(VIDEO_ID);
    expect(json.formats.map((f) => f.id)).toContain("transcript");
  });

  it("POST /resolve answers the spec's link messages", async () => {
    const cases: Array<[unknown, number, string, string]> = [
      [{ url: "" }, 400, "link.empty", "Please enter a YouTube URL"],
      [{ url: "hello there" }, 400, "link.invalid", "Please enter a valid video link"],
      [{ url: "https://www.youtube.com/watch?v=short" }, 400, "link.no_id", "Could not extract video ID from URL"],
      [{ url: "https://youtu.be/notFound123" }, 404, "video.not_found", "Video not found"],
      [{}, 400, "request.invalid", "The request is not valid."],
      // unreadable bodies are refused by the host's body check (server/http-errors.ts)
      ["{not json", 400, "request.bad_body", "The form data could not be read. Please reload the page and try again."],
    ];
    for (const [body, status, code, message] of cases) {
      const res = await post("/resolve", body);
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ error: { code, message } });
    }
  });

  it("refuses generic links to private addresses (SSRF guard through the whole stack)", async () => {
    for (const url of ["http://127.0.0.1:9/a.mp4", "http://[::1]/a.m3u8", "http://169.254.169.254/latest/meta-data/", "http://2130706433/x.mpd"]) {
      const res = await post("/resolve", { url });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("link.blocked_address");
    }
  });

  it("POST /downloads creates a signed link that streams the file", async () => {
    const res = await post("/downloads", { url: WATCH_URL, format: "thumbnail-hd" });
    expect(res.status).toBe(200);
    const created = (await res.json()) as { id: string; downloadUrl: string; filename: string; expiresAt: string };
    expect(created.filename).toBe(`youtube-thumbnail-${VIDEO_ID}.jpg`);
    const file = await get(origin + new URL(created.downloadUrl).pathname);
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("image/jpeg");
    expect(file.headers["content-disposition"]).toBe(`attachment; filename="youtube-thumbnail-${VIDEO_ID}.jpg"; filename*=UTF-8''youtube-thumbnail-${VIDEO_ID}.jpg`);
  });

  it("POST /downloads: unknown 400, premium 403, unavailable 422", async () => {
    expect((await post("/downloads", { url: WATCH_URL, format: "gif" })).status).toBe(400);
    expect((await post("/downloads", { url: WATCH_URL, format: "vtt" })).status).toBe(403);
    const unavailable = await post("/downloads", { url: WATCH_URL, format: "mp4-720" });
    expect(unavailable.status).toBe(422);
    expect(((await unavailable.json()) as { error: { code: string } }).error.code).toBe("format.unavailable");
  });

  it("GET /download redirects to a fresh signed link (curl -LOJ)", async () => {
    const res = await fetch(`${origin}/api/v1/download?url=${encodeURIComponent(WATCH_URL)}&format=m4a`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^http:\/\/127\.0\.0\.1:1\/api\/v1\/dl\/[\w-]+\.[\w-]+$/);
  });

  it("POST /downloads and GET /download take tags (issue 33 §7): carried in the signed link, a malformed value refused first", async () => {
    const bare = (await (await post("/downloads", { url: WATCH_URL, format: "mp3-128", tags: false })).json()) as { downloadUrl: string; bytes: number };
    const tagged = (await (await post("/downloads", { url: WATCH_URL, format: "mp3-128" })).json()) as { downloadUrl: string; bytes: number };
    const claimsOf = (link: string) => verifyDownload("engine-core-test-secret", new URL(link).pathname.split("/").pop()!);
    expect(claimsOf(bare.downloadUrl).options).toEqual({ tags: false });
    expect(claimsOf(tagged.downloadUrl).options).toBeUndefined();
    // the size announced counts the tags' bytes
    expect(tagged.bytes).toBeGreaterThan(bare.bytes);
    const redirect = await fetch(`${origin}/api/v1/download?url=${encodeURIComponent(WATCH_URL)}&format=mp3-128&tags=false`, { redirect: "manual" });
    expect(redirect.status).toBe(302);
    expect(claimsOf(redirect.headers.get("location")!).options).toEqual({ tags: false });
    for (const res of [
      await post("/downloads", { url: WATCH_URL, format: "mp3-128", tags: "maybe" }),
      await post("/downloads", { urls: [WATCH_URL], format: "mp3-128", tags: 0 }),
      await fetch(`${origin}/api/v1/download?url=${encodeURIComponent(WATCH_URL)}&format=mp3-128&tags=yes`, { redirect: "manual" }),
    ]) {
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("request.invalid");
    }
  });

  it("GET /downloads/:id/progress streams SSE until the download is done", async () => {
    const created = (await (await post("/downloads", { url: WATCH_URL, format: "m4a" })).json()) as { id: string; downloadUrl: string };
    const events = fetch(`${origin}/api/v1/downloads/${created.id}/progress`);
    const sse = await events;
    expect(sse.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(sse.headers.get("cache-control")).toBe("no-store");
    expect(sse.headers.get("x-accel-buffering")).toBe("no");
    const file = await get(origin + new URL(created.downloadUrl).pathname);
    expect(file.outcome).toBe("end");
    const text = await sse.text(); // the server closes the stream after "done"
    const data = text
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)) as { bytes: number; total: number | null; state: string });
    expect(data[0]).toMatchObject({ state: "queued", bytes: 0 });
    expect(data.at(-1)).toEqual({ bytes: file.body.length, total: file.body.length, state: "done" });
  });

  it("GET /downloads/:id/progress for an unknown id is a JSON 404", async () => {
    const res = await fetch(`${origin}/api/v1/downloads/dl_nope/progress`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "download.not_found", message: "Download not found." } });
  });

  it("GET /openapi.json describes every route", async () => {
    const doc = (await (await fetch(`${origin}/api/v1/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual(["/dl/{token}", "/download", "/downloads", "/downloads/{id}/progress", "/frame", "/jobs", "/jobs/{id}", "/jobs/{id}/file", "/keys", "/keys/{id}", "/openapi.json", "/profiles", "/profiles/{id}", "/resolve", "/status"]);
  });

  it("per-IP fair use: counted when links stream; 429 with Retry-After and the spec's wording", async () => {
    // creating links is not downloading: more links than the limit (8) can be created
    const links: Array<{ downloadUrl: string }> = [];
    for (let i = 0; i < 10; i++) {
      const created = await post("/downloads", { url: WATCH_URL, format: "m4a" });
      expect(created.status).toBe(200);
      links.push((await created.json()) as { downloadUrl: string });
    }
    let refused: Awaited<ReturnType<typeof get>> | null = null;
    for (const l of links) {
      const file = await get(origin + new URL(l.downloadUrl).pathname);
      if (file.status === 429) {
        refused = file;
        break;
      }
      expect(file.status).toBe(200);
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused!.headers["retry-after"])).toBeGreaterThan(0);
    expect(JSON.parse(refused!.body.toString())).toEqual({
      error: { code: "download.rate_limited", message: "You've made too many requests. Please wait a moment and try again." },
    });
    // at the limit, creating a link says so too (the page shows it instead of a failed download)
    const last = await post("/downloads", { url: WATCH_URL, format: "m4a" });
    expect(last.status).toBe(429);
    expect(await last.json()).toEqual({
      error: { code: "download.rate_limited", message: "You've made too many requests. Please wait a moment and try again." },
    });
  });
});
