/**
 * The start-up log names yt-dlp's path and version like ffmpeg's, warns when it is older than 60
 * days (issue 32 §6), and says plainly when yt-dlp is absent (issue 12); a YTDLP_PATH that is not a working yt-dlp stops the start with a message
 * the operator can act on. Real createServices (PGlite in a temporary DATA_DIR), a fake yt-dlp.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, expect, test } from "vitest";
import { writeFakeYtdlp } from "#tests/mocks/ytdlp.ts";
import { loadConfig } from "#server/config.ts";
import { createServices, type Services } from "#server/services.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** createServices with a logger whose lines the test reads back. */
async function start(env: Record<string, string>): Promise<{ services: Services; lines: LogLine[] }> {
  const dir = await mkdtemp(path.join(tmpdir(), "vidfetch-startlog-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const config = loadConfig({ DATA_DIR: dir, FFMPEG_PATH: "/usr/bin/ffmpeg", FFPROBE_PATH: "/usr/bin/ffprobe", ...env });
  const services = await createServices(config, pino({ level: "info" }, sink));
  cleanups.push(() => services.close());
  return { services, lines };
}

const about = (lines: LogLine[], word: string) => lines.filter((l) => l.msg.startsWith(word));

/** yt-dlp's version for a release `days` before now, as it prints it. */
function versionDaysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10).replaceAll("-", ".");
}

test("with a yt-dlp from last week: one info line with its path and version, next to ffmpeg's, and no warning", async () => {
  const version = versionDaysAgo(7);
  const fake = await writeFakeYtdlp({ type: "crash" }, { version });
  const { lines } = await start({ YTDLP_PATH: fake.path });
  expect(about(lines, "ffmpeg located")).toEqual([expect.objectContaining({ level: 30, ffmpeg: "/usr/bin/ffmpeg", version: expect.any(String) })]);
  expect(about(lines, "yt-dlp")).toEqual([expect.objectContaining({ level: 30, ytdlp: fake.path, version, msg: `yt-dlp ${version} located: links of other platforms resolve through it` })]);
}, 60_000);

test("with a yt-dlp older than 60 days: the info line, then one warning saying how old and how to update it", async () => {
  const version = versionDaysAgo(61);
  const fake = await writeFakeYtdlp({ type: "crash" }, { version });
  const { lines } = await start({ YTDLP_PATH: fake.path });
  expect(about(lines, "yt-dlp")).toEqual([
    expect.objectContaining({ level: 30, version, msg: `yt-dlp ${version} located: links of other platforms resolve through it` }),
    expect.objectContaining({
      level: 40,
      ytdlp: fake.path,
      version,
      msg: expect.stringMatching(new RegExp(`^yt-dlp ${version.replaceAll(".", "\\.")} is 61 days old \\(more than 60\\): .*update it: .*deploy/fetch-yt-dlp\\.mjs.*pip install -U yt-dlp`)),
    }),
  ]);
}, 60_000);

test("after start, what the yt-dlp lists is read in the background and kept in DATA_DIR under its version", async () => {
  const fake = await writeFakeYtdlp({ type: "crash" }, { version: "2026.11.01", extractors: "vimeo\ntiktok:user (CURRENTLY BROKEN)\n" });
  const { services } = await start({ YTDLP_PATH: fake.path });
  expect(await services.ytdlpExtractors.settled).toEqual({
    state: "ready",
    version: "2026.11.01",
    extractors: [
      { name: "vimeo", broken: false },
      { name: "tiktok:user", broken: true },
    ],
  });
  const kept = path.join(services.config.DATA_DIR, "yt-dlp", "extractors-2026.11.01.json");
  expect(JSON.parse(await readFile(kept, "utf8"))).toMatchObject({ version: "2026.11.01" });
}, 60_000);

test("YTDLP_PATH=off: a warning that says yt-dlp is absent, why, and what visitors get", async () => {
  const { services, lines } = await start({ YTDLP_PATH: "off" });
  expect(services.engine.ytdlp).toBeNull();
  expect(services.ytdlpExtractors.current()).toEqual({ state: "absent" });
  expect(about(lines, "yt-dlp")).toEqual([
    expect.objectContaining({
      level: 40,
      ytdlp: null,
      msg: "yt-dlp absent (YTDLP_PATH=off switches it off): Facebook, Instagram and other platforms' links are answered that this server cannot download them",
    }),
  ]);
}, 60_000);

test("no yt-dlp on PATH and YTDLP_PATH unset: the warning says it was not found and how to add it", async () => {
  const empty = await mkdtemp(path.join(tmpdir(), "vidfetch-empty-path-"));
  const saved = process.env.PATH;
  // yt-dlp is looked up on the PATH it runs with; an empty folder has none
  process.env.PATH = empty;
  cleanups.push(async () => {
    process.env.PATH = saved;
    await rm(empty, { recursive: true, force: true });
  });
  const { services, lines } = await start({});
  expect(services.engine.ytdlp).toBeNull();
  expect(about(lines, "yt-dlp")).toEqual([expect.objectContaining({ level: 40, ytdlp: null, msg: expect.stringMatching(/^yt-dlp absent \(not found on PATH \(install yt-dlp or set YTDLP_PATH\)\)/) })]);
}, 60_000);

test("a YTDLP_PATH that is not a working yt-dlp stops the start, saying what to do", async () => {
  await expect(start({ YTDLP_PATH: "/nonexistent/yt-dlp" })).rejects.toThrow(
    "YTDLP_PATH=/nonexistent/yt-dlp is not a working yt-dlp (it gave no version for --version): fix the path, or set YTDLP_PATH=off to run without yt-dlp",
  );
}, 60_000);
