/**
 * Engine speed against yt-dlp (issue 13): segmented (HLS master and DASH with separate audio,
 * 100 ms per request), a direct file and a YouTube-shaped adaptive download behind a CDN that
 * throttles each connection, and 1000 concurrent downloads. Every timed row alternates yt-dlp
 * and the engine in the same run (medians of BENCH_RUNS, default 5) and prints both ratios: to
 * yt-dlp and to the physical limit computed from the origin's latency or per-connection rate.
 * Without yt-dlp a row says "no baseline" and is never marked met.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import pino from "pino";
import { createEngine, type Engine } from "../engine/index.ts";
import type { EngineConfig } from "../engine/config.ts";
import { DEFAULT_MAX_CONNECTIONS_PER_HOST } from "../engine/outbound/outbound-fetch.ts";
import { DEFAULT_RANGE_CONCURRENCY } from "../engine/stream/ranged-reader.ts";
import { segmentsInFlight } from "../engine/stream/run-plan.ts";
import { startMockPlatform } from "../tests/mocks/platform.ts";
import { ensureBuild, startServer, stop as stopServer } from "./pages.ts";
import { ensureSpeedMedia } from "./speed-media.ts";
import type { Row } from "./run.ts";

const exec = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const SPEED_ROWS = ["hls-master", "hls-server", "dash", "throttled-direct", "adaptive", "many"] as const;
export type SpeedRow = (typeof SPEED_ROWS)[number];

/** One line of the benchmark table (the shape `bench/run.ts` prints and writes). */
export type SpeedResultRow = Row;

const LATENCY_MS = 100;
/** the throttling CDN's rate per connection */
const DIRECT_RATE = 1024 * 1024;
/** the googlevideo-like origin's rate per connection (its files are small: the throttle is too) */
const ADAPTIVE_RATE = 128 * 1024;
const SEGMENT_CONCURRENCY = 6;

const fmt = (n: number, digits = 2) => n.toFixed(digits);
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

async function seconds(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
}

/** Starts a bench helper process that prints `{"origin": …}` on its first line. */
async function helperProcess(script: string, args: string[]): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(path.join(repoRoot, "node_modules", ".bin", "tsx"), [path.join(repoRoot, "bench", script), ...args], { stdio: ["pipe", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { origin: (JSON.parse(line) as { origin: string }).origin, child };
}

/** curl to /dev/null (following redirects when asked): HTTP status and bytes */
async function curl(url: string, follow = false): Promise<{ code: number; bytes: number }> {
  const { stdout } = await exec("curl", ["-s", ...(follow ? ["-L"] : []), "-o", "/dev/null", "-w", "%{http_code} %{size_download}", url]);
  const [code, bytes] = stdout.trim().split(" ").map(Number);
  return { code: code!, bytes: bytes! };
}

async function ytDlpVersion(): Promise<string | null> {
  return exec("yt-dlp", ["--version"]).then(
    (r) => r.stdout.trim(),
    () => null,
  );
}

interface Comparison {
  ours: number;
  ytdlp: number | null;
}

/**
 * Alternates yt-dlp and the engine `runs` times each; medians. With `warmUp`, each runs once
 * untimed first (the engine's run numbered -1): the first download of a kind in a process loads
 * and compiles its code and finds no started ffmpeg or prober (decisions 027, 029), which is
 * what a server meets once after it starts, not on the downloads its visitors make.
 */
async function compare(runs: number, ytdlp: (() => Promise<unknown>) | null, ours: (i: number) => Promise<unknown>, opts: { warmUp?: boolean } = {}): Promise<Comparison> {
  if (opts.warmUp) {
    await ytdlp?.();
    await ours(-1);
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (ytdlp) a.push(await seconds(ytdlp));
    b.push(await seconds(() => ours(i)));
  }
  return { ours: median(b), ytdlp: ytdlp ? median(a) : null };
}

function timedRow(name: string, c: Comparison, limit: { seconds: number; how: string }, target: { vsYtdlp: number; vsLimit?: number }, ytdlpLabel: string): SpeedResultRow {
  const vsLimit = c.ours / limit.seconds;
  const ratio = c.ytdlp !== null ? c.ours / c.ytdlp : null;
  const limitOk = target.vsLimit === undefined || vsLimit <= target.vsLimit;
  return {
    row: name,
    baseline: c.ytdlp !== null ? `${ytdlpLabel}: ${fmt(c.ytdlp)} s; limit ${fmt(limit.seconds)} s (${limit.how})` : `no baseline (yt-dlp not installed); limit ${fmt(limit.seconds)} s (${limit.how})`,
    measured: `${fmt(c.ours)} s (median; resolve included)`,
    ratio: `${ratio !== null ? `${fmt(ratio)}× yt-dlp's time` : "no baseline"}; ${fmt(vsLimit)}× the limit`,
    target: `≤ ${fmt(target.vsYtdlp)}× yt-dlp's time${target.vsLimit !== undefined ? `; ≤ ${target.vsLimit}× the limit` : ""}`,
    pass: ratio === null ? null : ratio <= target.vsYtdlp && limitOk,
  };
}

/** The engine behind a minimal HTTP server, as in bench/run.ts. */
async function startEngine(config: (publicUrl: string) => EngineConfig): Promise<{ engine: Engine; publicUrl: string; close(): Promise<void> }> {
  let engine: Engine | null = null;
  const server = http.createServer((req, res) => {
    const m = /^\/api\/v1\/dl\/([^/?]+)/.exec(req.url ?? "");
    if (!m || !engine) return void res.writeHead(404).end();
    void engine.handleDownload(m[1]!, req, res);
  });
  // 1000 clients connect in the same millisecond: Node's default accept backlog (511) would make
  // the kernel reset some of them before the engine ever sees a request
  await new Promise<void>((r) => server.listen({ port: 0, host: "127.0.0.1", backlog: 2048 }, r));
  const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  engine = await createEngine(config(publicUrl));
  return {
    engine,
    publicUrl,
    async close() {
      await engine?.close();
      server.closeAllConnections();
      server.close();
    },
  };
}

function engineConfig(work: string, publicUrl: string, over: { hostMap?: string; maxConcurrentDownloads?: number; clients?: string[] } = {}): EngineConfig {
  return {
    dataDir: work,
    publicUrl,
    signingSecret: "bench-secret-bench-secret-bench-secret",
    allowPrivateSources: true,
    hostMap: over.hostMap,
    youtube: { clients: over.clients ?? [], apiBaseUrl: "https://www.googleapis.com/youtube/v3" },
    limits: {
      maxConcurrentDownloads: over.maxConcurrentDownloads ?? 500,
      downloadsPerIpPerHour: 0,
      maxConcurrentDownloadsPerIp: 0,
      segmentConcurrency: SEGMENT_CONCURRENCY,
      chunkBytes: 8 * 1024 * 1024,
      rangeConcurrency: DEFAULT_RANGE_CONCURRENCY,
      linkTtlSeconds: 600,
      // as the server: the download reuses what createDownload resolved (each run has its own URL)
      resolveCacheSeconds: 300,
      outboundTimeoutMs: 30_000,
    },
    logger: pino({ level: process.env.BENCH_LOG ?? "silent" }),
  };
}

/**
 * The production server (`npm start`'s build and flags, PGlite, a fresh data folder) downloading
 * what `downloadUrl` names, alternating with yt-dlp: the path a visitor's download takes, with
 * everything the server does besides the engine (its other work, its heap, its process starts).
 */
async function compareThroughServer(
  site: { repoRoot: string; buildDir: string },
  runs: number,
  ytdlp: (() => Promise<unknown>) | null,
  downloadUrl: (origin: string, run: number) => string,
): Promise<Comparison> {
  ensureBuild(site.repoRoot, site.buildDir);
  // the origin is on 127.0.0.1, which the server refuses to fetch from unless told otherwise
  const server = await startServer(site.repoRoot, site.buildDir, { ALLOW_PRIVATE_SOURCES: "true" });
  try {
    const once = async (i: number) => {
      const r = await curl(downloadUrl(server.origin, i), true);
      if (r.code !== 200 || r.bytes === 0) throw new Error(`download through the server failed: HTTP ${r.code}, ${r.bytes} bytes`);
    };
    return await compare(runs, ytdlp, once, { warmUp: true });
  } finally {
    await stopServer(server.child);
  }
}

/** media playlist lines that name a segment */
async function countSegments(file: string): Promise<number> {
  const text = await fs.readFile(file, "utf8");
  return text.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("#")).length;
}

export async function runEngineSpeedRows(opts: {
  rows: Set<SpeedRow>;
  work: string;
  log: (line: string) => void;
  twentyMbFile: string;
  /** the production build `npm start` serves (the row through the server) */
  site: { repoRoot: string; buildDir: string };
}): Promise<SpeedResultRow[]> {
  const { log, work } = opts;
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
  const version = await ytDlpVersion();
  const media = await ensureSpeedMedia(log);
  const rows: SpeedResultRow[] = [];
  const children: ChildProcess[] = [];
  const closers: Array<() => Promise<void>> = [];
  const ytOut = (name: string) => path.join(work, `ytdlp-${name}.%(ext)s`);
  const rmYtOut = async () => {
    for (const f of await fs.readdir(work)) if (f.startsWith("ytdlp-")) await fs.rm(path.join(work, f), { force: true });
  };
  try {
    const needsSlow = opts.rows.has("hls-master") || opts.rows.has("hls-server") || opts.rows.has("dash");
    const slow = needsSlow ? await helperProcess("origin-process.ts", [media.dir, String(LATENCY_MS)]) : null;
    if (slow) children.push(slow.child);
    const plain = await helperProcess("origin-process.ts", [media.dir, "0"]);
    children.push(plain.child);
    const host = await startEngine((publicUrl) => engineConfig(work, publicUrl));
    closers.push(host.close);
    const caller = { kind: "anonymous" as const };
    const download = async (url: string, format: string) => {
      const created = await host.engine.createDownload({ url, format, caller, ip: "127.0.0.1" });
      const r = await curl(created.downloadUrl);
      if (r.code !== 200 || r.bytes === 0) throw new Error(`${format} of ${url} failed: HTTP ${r.code}, ${r.bytes} bytes`);
      return r;
    };

    // Segmented: HLS master + separate audio, DASH; 4 s and 1 s segments; 100 ms per request
    const segmented: Array<{ row: SpeedRow; kind: string; rel: string; seconds: number; playlists: string[] }> = [
      { row: "hls-master", kind: "HLS master + separate audio", rel: media.hls4, seconds: 4, playlists: ["hls4/0/index.m3u8", "hls4/1/index.m3u8"] },
      { row: "hls-master", kind: "HLS master + separate audio", rel: media.hls1, seconds: 1, playlists: ["hls1/0/index.m3u8", "hls1/1/index.m3u8"] },
      { row: "dash", kind: "DASH + separate audio", rel: media.dash4, seconds: 4, playlists: [] },
      { row: "dash", kind: "DASH + separate audio", rel: media.dash1, seconds: 1, playlists: [] },
    ];
    const ytDlpSegmented = (url: string) =>
      version ? () => exec("yt-dlp", ["-q", "--no-part", "-N", "8", "-f", "bv*+ba/b", "--merge-output-format", "mp4", "-o", ytOut("seg"), url]).then(rmYtOut) : null;
    for (const s of segmented) {
      const server = s.row === "hls-master" && s.seconds === 4 && opts.rows.has("hls-server");
      if ((!opts.rows.has(s.row) && !server) || !slow) continue;
      const url = `${slow.origin}/${s.rel}`;
      const total = s.seconds === 4 ? 60 : 120;
      // segments of the longer rendition (video): from its playlist, or duration ÷ segment length (+ init)
      const segs = s.playlists.length > 0 ? await countSegments(path.join(media.dir, s.playlists[0]!)) : Math.ceil(total / s.seconds) + 1;
      // requests on the critical path: manifest, then (HLS) the media playlists, then the
      // segments of each rendition in rounds of what the engine keeps in flight (video and audio at once)
      const inFlight = segmentsInFlight(SEGMENT_CONCURRENCY, [{ durationSeconds: s.seconds }]);
      const rounds = (s.playlists.length > 0 ? 2 : 1) + Math.ceil(segs / inFlight);
      const limit = { seconds: (rounds * LATENCY_MS) / 1000, how: `${rounds} request rounds × ${LATENCY_MS} ms, ${inFlight} in parallel per rendition` };
      const name = `${s.kind} (${total} s 1080p, ${segs} × ${s.seconds} s segments, origin +${LATENCY_MS} ms per request) to \`mp4-1080\``;
      if (opts.rows.has(s.row)) {
        log(`${s.kind}, ${segs} × ${s.seconds} s segments, +${LATENCY_MS} ms per request…`);
        const c = await compare(runs, ytDlpSegmented(url), (i) => download(`${url}?run=${i}-${Date.now()}`, "mp4-1080"), { warmUp: true });
        rows.push(timedRow(name, c, limit, { vsYtdlp: 0.8, vsLimit: 1.3 }, "`yt-dlp -N 8`"));
      }
      if (server) {
        log(`${s.kind}, ${segs} × ${s.seconds} s segments, through npm start's server…`);
        const c = await compareThroughServer(opts.site, runs, ytDlpSegmented(url), (origin, i) => {
          const link = `${url}?server-run=${i}-${Date.now()}`;
          return `${origin}/api/v1/download?url=${encodeURIComponent(link)}&format=mp4-1080`;
        });
        rows.push(timedRow(`${name}, through \`npm start\`'s server (\`GET /api/v1/download\`, followed to the signed link)`, c, limit, { vsYtdlp: 0.8, vsLimit: 1.3 }, "`yt-dlp -N 8`"));
      }
    }

    if (opts.rows.has("throttled-direct")) {
      const cdn = await helperProcess("throttle-process.ts", [plain.origin, String(DIRECT_RATE)]);
      children.push(cdn.child);
      const size = (await fs.stat(path.join(media.dir, media.direct))).size;
      const url = `${cdn.origin}/${media.direct}`;
      log(`direct MP4 (${fmt(size / 1e6, 1)} MB) at ${DIRECT_RATE / 1024} KiB/s per connection…`);
      const c = await compare(
        runs,
        version ? () => exec("yt-dlp", ["-q", "--no-part", "-o", ytOut("direct"), url]).then(rmYtOut) : null,
        (i) => download(`${url}?run=${i}-${Date.now()}`, "mp4-1080"),
      );
      rows.push(
        timedRow(
          `Direct MP4 (${fmt(size / 1e6, 1)} MB) from a CDN throttling each connection to 1 MiB/s`,
          c,
          { seconds: size / (DIRECT_RATE * DEFAULT_RANGE_CONCURRENCY), how: `bytes ÷ (1 MiB/s × ${DEFAULT_RANGE_CONCURRENCY} connections)` },
          { vsYtdlp: 1 / 3 },
          "plain `yt-dlp`",
        ),
      );
    }

    if (opts.rows.has("adaptive")) {
      // the mock platform (InnerTube + googlevideo shapes) behind a CDN throttling /videoplayback
      const platform = await startMockPlatform({ dataDir: path.join(os.tmpdir(), "vidfetch-bench-mock-platform") });
      closers.push(platform.close);
      const gv = await helperProcess("throttle-process.ts", [platform.origin, String(ADAPTIVE_RATE), "^/videoplayback"]);
      children.push(gv.child);
      const hostMap = platform.hostMap.split(",").map((e) => `${e.split("=")[0]}=${gv.origin}`).join(",");
      const yt = await startEngine((publicUrl) => engineConfig(work, publicUrl, { hostMap, clients: ["ANDROID"] }));
      closers.push(yt.close);
      const videoBytes = (await fs.stat(platform.media.video[720])).size;
      const audioBytes = (await fs.stat(platform.media.audioM4a)).size;
      // yt-dlp gets the same two itags as an info JSON (what its YouTube extractor would produce)
      const info = path.join(work, "adaptive.info.json");
      const fmtEntry = (itag: number, ext: string, v: boolean) => ({
        format_id: String(itag),
        url: `${gv.origin}/videoplayback?itag=${itag}&source=youtube`,
        ext,
        protocol: "https",
        vcodec: v ? "avc1.64001f" : "none",
        acodec: v ? "none" : "mp4a.40.2",
        downloader_options: { http_chunk_size: 10 * 1024 * 1024 },
      });
      await fs.writeFile(
        info,
        JSON.stringify({ id: "vidfetchAll", title: "adaptive", extractor: "youtube", extractor_key: "Youtube", webpage_url: "https://www.youtube.com/watch?v=vidfetchAll", formats: [fmtEntry(136, "mp4", true), fmtEntry(140, "m4a", false)] }),
      );
      log(`YouTube-shaped adaptive mp4-720 (${fmt((videoBytes + audioBytes) / 1e6, 2)} MB) at ${ADAPTIVE_RATE / 1024} KiB/s per connection…`);
      const c = await compare(
        runs,
        version ? () => exec("yt-dlp", ["-q", "--no-part", "--load-info-json", info, "-f", "136+140", "--merge-output-format", "mp4", "-o", ytOut("adaptive")]).then(rmYtOut) : null,
        async () => {
          const created = await yt.engine.createDownload({ url: "https://www.youtube.com/watch?v=vidfetchAll", format: "mp4-720", caller, ip: "127.0.0.1" });
          const r = await curl(created.downloadUrl);
          if (r.code !== 200 || r.bytes === 0) throw new Error(`adaptive mp4-720 failed: HTTP ${r.code}`);
        },
      );
      rows.push(
        timedRow(
          `YouTube-shaped adaptive \`mp4-720\` (itags 136 + 140, ${fmt((videoBytes + audioBytes) / 1e6, 2)} MB) from a googlevideo-like origin throttling each connection to ${ADAPTIVE_RATE / 1024} KiB/s`,
          c,
          { seconds: Math.max(videoBytes, audioBytes) / (ADAPTIVE_RATE * DEFAULT_RANGE_CONCURRENCY), how: `largest stream ÷ (${ADAPTIVE_RATE / 1024} KiB/s × ${DEFAULT_RANGE_CONCURRENCY} connections), both streams at once` },
          { vsYtdlp: 1 / 3 },
          "`yt-dlp --load-info-json … -f 136+140`",
        ),
      );
    }

    if (opts.rows.has("many")) {
      const many = await startEngine((publicUrl) => engineConfig(work, publicUrl, { maxConcurrentDownloads: 2000 }));
      closers.push(many.close);
      const size = (await fs.stat(opts.twentyMbFile)).size;
      const rel = path.relative(media.dir, opts.twentyMbFile);
      const fileOrigin = rel.startsWith("..") ? await helperProcess("origin-process.ts", [path.dirname(opts.twentyMbFile), "0"]) : plain;
      if (fileOrigin !== plain) children.push(fileOrigin.child);
      const url = `${fileOrigin.origin}/${path.basename(opts.twentyMbFile)}`;
      const count = Number(process.env.BENCH_MANY ?? 1000);
      log(`${count} concurrent downloads of a ${fmt(size / 1e6, 0)} MB file…`);
      const links = await Promise.all(Array.from({ length: count }, () => many.engine.createDownload({ url, format: "mp4-360", caller, ip: "127.0.0.1" })));
      const rssBefore = process.memoryUsage().rss;
      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
      const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
      const failures = new Map<string, number>();
      const failed = (kind: string) => failures.set(kind, (failures.get(kind) ?? 0) + 1);
      // each file is the 20 MB file with its tags: the length its link announced
      const fetchOne = (u: string, expected: number | null) =>
        new Promise<number>((resolve) => {
          const req = http.get(u, { agent }, (res) => {
            let bytes = 0;
            res.on("data", (c: Buffer) => (bytes += c.length));
            res.on("end", () => {
              if (res.statusCode !== 200) failed(`HTTP ${res.statusCode}`);
              else if (bytes !== expected) failed(bytes < (expected ?? 0) ? "short body" : "wrong length");
              resolve(res.statusCode === 200 ? bytes : -1);
            });
            res.on("error", () => (failed("cut"), resolve(-1)));
          });
          req.on("error", (err) => (failed((err as NodeJS.ErrnoException).code ?? "request error"), resolve(-1)));
        });
      const t = performance.now();
      const got = await Promise.all(links.map((l) => fetchOne(l.downloadUrl, l.bytes)));
      const elapsed = (performance.now() - t) / 1000;
      clearInterval(sampler);
      agent.destroy();
      const errors = got.filter((b, i) => b !== links[i]!.bytes).length;
      const total = got.reduce((n, b) => n + Math.max(0, b), 0);
      rows.push({
        row: `${count} concurrent downloads of a ${fmt(size / 1e6, 0)} MB file (one origin; per-host cap ${DEFAULT_MAX_CONNECTIONS_PER_HOST} connections)`,
        baseline: "—",
        measured: `${errors} errors${failures.size > 0 ? ` (${[...failures].map(([k, n]) => `${n} ${k}`).join(", ")})` : ""}; ${fmt(total / 1e6 / elapsed, 0)} MB/s aggregate (${fmt(elapsed, 1)} s for ${fmt(total / 1e9, 1)} GB); RSS ${fmt(rssBefore / 1e6, 0)} MB before, peak ${fmt(peak / 1e6, 0)} MB`,
        ratio: "—",
        target: "0 errors; throughput and RSS reported",
        pass: errors === 0,
      });
    }
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    for (const c of children) c.kill("SIGTERM");
  }
  return rows;
}

/** `tsx bench/engine-speed.ts [row,…]`: just these rows, printed (docs are written by bench/run.ts). */
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const names = (process.argv[2] ?? SPEED_ROWS.join(",")).split(",") as SpeedRow[];
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "vidfetch-speed-"));
  const { ensureBenchMedia } = await import("./media.ts");
  const twentyMbFile = names.includes("many") ? (await ensureBenchMedia(console.log)).mp4_20mb : "";
  try {
    const site = { repoRoot, buildDir: process.env.BUILD_DIR ?? path.join(repoRoot, "build") };
    const rows = await runEngineSpeedRows({ rows: new Set(names), work, log: console.log, twentyMbFile, site });
    for (const r of rows) console.log(`| ${r.row} | ${r.baseline} | ${r.measured} | ${r.ratio} | ${r.target} | ${r.pass === null ? "—" : r.pass ? "yes" : "**no**"} |`);
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
  process.exit(0);
}
