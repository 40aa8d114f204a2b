/**
 * Shared by the yt-dlp tests: whether this machine has yt-dlp (tests that need the real one skip
 * with a visible notice without it), a folder of local pages on the mock media set, and an engine
 * that downloads through its signed links into a file for ffprobe.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createEngine, type Engine } from "#engine/index.ts";
import { locateMediaTools, type MediaTools } from "#engine/media/ffmpeg.ts";
import { locateYtdlp } from "#engine/sources/ytdlp/locate.ts";
import type { Caller, FormatId } from "#engine/types.ts";
import { dlPath, get, serveDownloads, testConfig, type TestConfigOverrides } from "../engine-core/engine-fixture.ts";

export const ANONYMOUS: Caller = { kind: "anonymous" };

/** The yt-dlp on PATH (Debian's package in CI), or null with a notice saying what is skipped. */
export async function systemYtdlp(what: string): Promise<string | null> {
  const found = await locateYtdlp(undefined).catch(() => null);
  if (!found) console.log(`[notice] yt-dlp is not installed (apt-get install yt-dlp): ${what} skipped`);
  return found?.path ?? null;
}

export interface EngineWithTools {
  engine: Engine;
  tools: MediaTools;
  close(): Promise<void>;
}

export async function startEngine(config: TestConfigOverrides): Promise<EngineWithTools> {
  const tools = await locateMediaTools({});
  const engine = await createEngine(testConfig(config), { media: tools, killGraceMs: 300 });
  return { engine, tools, close: () => engine.close() };
}

/** Creates a download link for `format` and saves what it streams into a temporary file. */
export async function downloadToFile(engine: Engine, url: string, format: FormatId): Promise<{ file: string; status: number; bytes: number; planned: number | null }> {
  const created = await engine.createDownload({ url, format, caller: ANONYMOUS, ip: "203.0.113.9" });
  const server = await serveDownloads(engine);
  try {
    const res = await get(`${server.origin}${dlPath(created.downloadUrl)}`);
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "vidfetch-ytdlp-")), created.filename);
    await fs.writeFile(file, res.body);
    return { file, status: res.status, bytes: res.body.length, planned: created.bytes };
  } finally {
    await server.close();
  }
}
