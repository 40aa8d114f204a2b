/**
 * Clips through the public API (issue 33 §7): `start`, `end` and `exact` on `POST /downloads` and
 * `GET /download`, carried in the signed link, and every clip the source cannot give answered with
 * a 422 and its catalogue code before any link exists. The engine fixture's video is 6 s long.
 */
import { execFile } from "node:child_process";
import http from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyDownload } from "#engine/serve/signed-links.ts";
import { contentDisposition } from "#engine/serve/stream-to-response.ts";
import { createApiRouter } from "#server/api/router.ts";
import { get, startEngineFixture, WATCH_URL, type EngineFixture } from "../engine-core/engine-fixture.ts";
import { silentLogger } from "../engine-core/helpers.ts";

const execFileAsync = promisify(execFile);
let fx: EngineFixture;
let origin: string;
let server: http.Server;
let tmp: string;

beforeAll(async () => {
  const app = express();
  fx = await startEngineFixture({ config: { publicUrl: "http://127.0.0.1:1" } });
  app.use("/api/v1", createApiRouter({ engine: fx.engine, logger: silentLogger }));
  server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tmp = await mkdtemp(path.join(os.tmpdir(), "vidfetch-clip-api-"));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await fx.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const post = (body: unknown) => fetch(`${origin}/api/v1/downloads`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

describe("a clip through the API", () => {
  it("POST /downloads takes start and end, says the size is the clip's share, and the file is the clip", async () => {
    const whole = (await (await post({ url: WATCH_URL, format: "mp4-360", tags: false })).json()) as { bytes: number };
    const res = await post({ url: WATCH_URL, format: "mp4-360", tags: false, start: "0:02", end: 4 });
    expect(res.status).toBe(200);
    const created = (await res.json()) as { downloadUrl: string; bytes: number; filename: string };
    expect(created.bytes).toBe(Math.round(whole.bytes / 3));
    // the clip's own name, its span without colons, in the answer and on the file
    expect(created.filename).toMatch(/ \(360p\) \[0\.02-0\.04\]\.mp4$/);
    expect(verifyDownload("engine-core-test-secret", created.downloadUrl.split("/").pop()!, 0).options).toEqual({ tags: false, start: 2, end: 4 });
    const file = await get(origin + new URL(created.downloadUrl).pathname);
    expect(file.status).toBe(200);
    expect(file.outcome).toBe("end");
    expect(file.headers["content-disposition"]).toBe(contentDisposition(created.filename));
    const saved = path.join(tmp, "clip.mp4");
    await writeFile(saved, file.body);
    const { stdout } = await execFileAsync(fx.tools.ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", saved]);
    // keyframes every 2 s: the cut at 2 s is a keyframe, so the clip is the 2 s asked
    expect(Number(stdout)).toBeGreaterThan(1.9);
    expect(Number(stdout)).toBeLessThan(2.2);
  });

  it("GET /download takes them in the query, exact too, into the signed link", async () => {
    const res = await fetch(`${origin}/api/v1/download?url=${encodeURIComponent(WATCH_URL)}&format=mp3-128&start=1.5&end=0:03&exact=true`, { redirect: "manual" });
    expect(res.status).toBe(302);
    const token = res.headers.get("location")!.split("/").pop()!;
    expect(verifyDownload("engine-core-test-secret", token, 0).options).toEqual({ tags: true, start: 1.5, end: 3, exact: true });
  });

  it("a clip the source cannot give is a 422 with its code, a time that is no time a 400", async () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ format: "mp4-360", start: 4, end: 3 }, 422, "clip.out_of_range"],
      [{ format: "mp4-360", start: "0:06" }, 422, "clip.out_of_range"],
      [{ format: "mp4-360", start: 1, end: "0:30" }, 422, "clip.out_of_range"],
      [{ format: "thumbnail-hd", start: 1, end: 2 }, 422, "clip.unavailable"],
      [{ format: "mp4-360", start: "soon" }, 400, "request.invalid"],
      [{ format: "mp4-360", end: "1:75" }, 400, "request.invalid"],
    ];
    for (const [body, status, code] of cases) {
      const res = await post({ url: WATCH_URL, ...body });
      expect([res.status, (await errorOf(res)).code]).toEqual([status, code]);
    }
    const query = await fetch(`${origin}/api/v1/download?url=${encodeURIComponent(WATCH_URL)}&format=mp4-360&start=5&end=2`, { redirect: "manual" });
    expect(query.status).toBe(422);
    expect(await errorOf(query)).toEqual({ code: "clip.out_of_range", message: "The clip must start before it ends, and within the video's length." });
  });
});
