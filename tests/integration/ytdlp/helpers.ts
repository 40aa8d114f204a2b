/**
 * Shared by the yt-dlp tests: whether this machine has yt-dlp (tests that need the real one skip
 * with a visible notice without it), a folder of local pages on the mock media set, and an engine
 * that downloads through its signed links into a file for ffprobe.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { createEngine, type Engine, type MediaOptions } from "#engine/index.ts";
import { locateMediaTools, type MediaTools } from "#engine/media/ffmpeg.ts";
import { locateYtdlp } from "#engine/sources/ytdlp/locate.ts";
import type { Caller, FormatId } from "#engine/types.ts";
import { ensureMockMedia, type MockMediaSet } from "#tests/mocks/media.ts";
import { writeFakeYtdlp, type FakeBehaviour, type FakeYtdlp } from "#tests/mocks/ytdlp.ts";
import { MEDIA_CACHE_DIR } from "../media/helpers.ts";
import { startMediaOrigin, type MediaOrigin } from "../media/origin.ts";
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

/** media options for a file left as the platform has it: no tags written into it */
export const BARE: MediaOptions = { tags: false };

/**
 * A remuxed format's size before download: its inputs' exact lengths plus the tags the file will
 * carry (title, artist, date, description: text only, no cover in a video), a few hundred bytes.
 */
export function expectInputsPlusTags(shown: number | null, inputs: number): void {
  expect(shown).not.toBeNull();
  expect(shown! - inputs).toBeGreaterThan(0);
  expect(shown! - inputs).toBeLessThan(4096);
}

/** Creates a download link for `format` and saves what it streams into a temporary file. */
export async function downloadToFile(
  engine: Engine,
  url: string,
  format: FormatId,
  options?: MediaOptions,
): Promise<{ file: string; status: number; bytes: number; planned: number | null }> {
  const created = await engine.createDownload({ url, format, caller: ANONYMOUS, ip: "203.0.113.9", ...(options ? { options } : {}) });
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

export interface FakeYtdlpBench {
  /** the mock media set and the local origin serving it (set once the file's beforeAll ran) */
  media(): MockMediaSet;
  origin(): MediaOrigin;
  /**
   * An engine whose yt-dlp is a fake behaving as told ("none": yt-dlp switched off), with the
   * given hosts (`*.cdn.test`, …) mapped to the media origin; closed after the file's tests.
   */
  engineWith(behaviour: FakeBehaviour, opts?: BenchEngineOptions): Promise<{ fixture: EngineWithTools; fake: FakeYtdlp }>;
  engineWith(behaviour: "none", opts?: BenchEngineOptions): Promise<{ fixture: EngineWithTools; fake: null }>;
}

export interface BenchEngineOptions {
  /** one yt-dlp run's limit (default 15 s) */
  timeoutMs?: number;
  /** more OUTBOUND_HOST_MAP entries (the mock platform's, …) */
  extraHostMap?: string;
}

/** For a test file of the yt-dlp adapter with a fake `yt-dlp`: the media origin and its engines. */
export function useFakeYtdlpBench(cdnHosts: string[]): FakeYtdlpBench {
  let media: MockMediaSet | undefined;
  let origin: MediaOrigin | undefined;
  const engines: EngineWithTools[] = [];
  beforeAll(async () => {
    media = await ensureMockMedia(MEDIA_CACHE_DIR);
    origin = await startMediaOrigin(media.dir);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(engines.map((e) => e.close()));
    await origin?.close();
  });
  const ready = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error("the media origin is not started yet (use it inside tests or beforeAll)");
    return v;
  };
  async function engineWith(behaviour: FakeBehaviour | "none", opts: BenchEngineOptions = {}): Promise<{ fixture: EngineWithTools; fake: FakeYtdlp | null }> {
    const fake = behaviour === "none" ? null : await writeFakeYtdlp(behaviour);
    const mapped = cdnHosts.map((h) => `${h}=${ready(origin).origin}`);
    const fixture = await startEngine({
      hostMap: [...mapped, opts.extraHostMap].filter(Boolean).join(","),
      // "off" switches yt-dlp off even on a machine that has it installed
      ytdlpPath: fake?.path ?? "off",
      ytdlpTimeoutMs: opts.timeoutMs ?? 15_000,
    });
    engines.push(fixture);
    return { fixture, fake };
  }
  return { media: () => ready(media), origin: () => ready(origin), engineWith: engineWith as FakeYtdlpBench["engineWith"] };
}
