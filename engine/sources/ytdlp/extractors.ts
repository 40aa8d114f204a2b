/**
 * What this server's yt-dlp can read (issue 32 §6): `yt-dlp --list-extractors`, run once in the
 * background after start (never on a request), kept for the process and in DATA_DIR keyed by
 * yt-dlp's version, so a restart with the same yt-dlp starts no Python for it. The
 * supported-sites page shows it; until it is read the page says so instead of waiting.
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import type { YtdlpBinary } from "./locate.ts";
import { ytdlpEnv } from "./locate.ts";
import { jailEnv } from "./network-jail.ts";

/** One extractor as yt-dlp lists it: `youtube:tab`, with `broken` for its "(CURRENTLY BROKEN)" mark. */
export interface Extractor {
  name: string;
  broken: boolean;
}

export type ExtractorList =
  { state: "absent" } | { state: "reading"; version: string } | { state: "failed"; version: string } | { state: "ready"; version: string; extractors: Extractor[] };

export interface YtdlpExtractors {
  /** the list as it stands now: never waits */
  current(): ExtractorList;
  /** settles once the list is read or failed */
  settled: Promise<ExtractorList>;
  /** ends a listing still running (server shutdown) and waits for it to settle */
  stop(): Promise<void>;
}

const BROKEN_MARK = /\s*\(CURRENTLY BROKEN\)\s*$/i;

/** yt-dlp's `--list-extractors` output: one name a line, some marked "(CURRENTLY BROKEN)". */
export function parseExtractorList(stdout: string): Extractor[] {
  const seen = new Set<string>();
  const list: Extractor[] = [];
  for (const raw of stdout.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    const name = line.replace(BROKEN_MARK, "");
    // names are letters, digits and a few marks (`southpark.cc.com:español`, `Bilibili category
    // extractor`); a warning or a traceback on stdout ("WARNING: …", "Traceback (…):") is not one
    if (!/^[\p{L}\p{N}_.+-][\p{L}\p{N}_.+ :-]*$/u.test(name) || /:(?: |$)/.test(name) || seen.has(name)) continue;
    seen.add(name);
    list.push({ name, broken: name !== line });
  }
  return list;
}

/** A Python start plus yt-dlp importing every extractor: slow machines need a while. */
const LIST_TIMEOUT_MS = 60_000;

function listExtractors(binary: string, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    // the jail with no proxy named: listing needs no network, so it may connect nowhere
    execFile(
      binary,
      ["--ignore-config", "--list-extractors"],
      {
        signal,
        timeout: LIST_TIMEOUT_MS,
        maxBuffer: 8 * 1024 * 1024,
        env: { ...ytdlpEnv(), ...jailEnv(undefined) },
      },
      (err, stdout) => {
        if (err) reject(err);
        else resolve(String(stdout));
      },
    );
  });
}

/** The cache file for a version: its name is the version, so a new yt-dlp is listed afresh. */
export function extractorCacheFile(cacheDir: string, version: string): string {
  return path.join(cacheDir, `extractors-${version.replace(/[^\w.-]/g, "_")}.json`);
}

async function readCache(file: string, version: string, logger: Logger): Promise<Extractor[] | null> {
  try {
    const data = JSON.parse(await readFile(file, "utf8")) as {
      version?: unknown;
      extractors?: unknown;
    };
    if (data.version !== version || !Array.isArray(data.extractors)) return null;
    const ok = data.extractors.every((e: unknown) => typeof (e as Extractor)?.name === "string" && typeof (e as Extractor)?.broken === "boolean");
    return ok && data.extractors.length > 0 ? (data.extractors as Extractor[]) : null;
  } catch (err) {
    // missing or unreadable: listed afresh, and the file rewritten
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") logger.warn({ err, file }, "yt-dlp's kept extractor list is unreadable: listing again");
    return null;
  }
}

async function writeCache(file: string, version: string, extractors: Extractor[]): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, JSON.stringify({ version, extractors }));
  await rename(partial, file);
}

export interface ExtractorOptions {
  /** where the list is kept between restarts (DATA_DIR/yt-dlp); none: in memory only */
  cacheDir?: string;
  logger: Logger;
  /** stands in for running yt-dlp (tests) */
  run?: (binary: string, signal: AbortSignal) => Promise<string>;
}

/**
 * Starts reading the list in the background and answers at once: "absent" without yt-dlp,
 * "reading" until it is in, then "ready" (or "failed": logged, and the page says it could not be read).
 */
export function loadYtdlpExtractors(ytdlp: YtdlpBinary | null, opts: ExtractorOptions): YtdlpExtractors {
  if (!ytdlp) {
    const absent: ExtractorList = { state: "absent" };
    return {
      current: () => absent,
      settled: Promise.resolve(absent),
      stop: () => Promise.resolve(),
    };
  }
  const abort = new AbortController();
  const { version } = ytdlp;
  let now: ExtractorList = { state: "reading", version };
  const settled = (async (): Promise<ExtractorList> => {
    const file = opts.cacheDir ? extractorCacheFile(opts.cacheDir, version) : null;
    const cached = file ? await readCache(file, version, opts.logger) : null;
    if (cached) return { state: "ready", version, extractors: cached };
    try {
      const extractors = parseExtractorList(await (opts.run ?? listExtractors)(ytdlp.path, abort.signal));
      if (extractors.length === 0) throw new Error("yt-dlp --list-extractors listed nothing");
      if (file)
        await writeCache(file, version, extractors).catch((err: unknown) =>
          opts.logger.warn({ err, file }, "yt-dlp's extractor list could not be kept in DATA_DIR: it is read again at the next start"),
        );
      return { state: "ready", version, extractors };
    } catch (err) {
      if (abort.signal.aborted) return { state: "failed", version };
      opts.logger.warn({ err, ytdlp: ytdlp.path, version }, "yt-dlp --list-extractors failed: the supported-sites page cannot list what it reads");
      return { state: "failed", version };
    }
  })().then((list) => (now = list));
  return {
    current: () => now,
    settled,
    async stop() {
      abort.abort();
      await settled;
    },
  };
}
