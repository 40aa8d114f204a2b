/**
 * Issue 30's benchmark rows: a 20-link bulk ZIP against the same 20 files downloaded one after
 * another (time, and peak RSS against a 5-link ZIP: it must not grow with the number of links),
 * and how long after its `runAt` a scheduled job starts on the embedded database's queue.
 */
import { openDatabase } from "../db/client.ts";
import type { Caller } from "../engine/types.ts";
import type { Engine } from "../engine/index.ts";
import { createJobRunner } from "../jobs/runner.ts";
import type { Row } from "./run.ts";

type Fetch = (url: string) => Promise<{ code: number; bytes: number; seconds: number }>;

const mb = (bytes: number) => bytes / 1e6;
const fmt = (n: number, digits = 2) => n.toFixed(digits);

async function withPeakRss<T>(fn: () => Promise<T>): Promise<{ value: T; growth: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const value = await fn();
    return { value, growth: Math.max(peak, process.memoryUsage().rss) - before };
  } finally {
    clearInterval(sampler);
  }
}

export async function bulkZipRows(opts: { engine: Engine; fileUrl: string; curl: Fetch; log: (s: string) => void }): Promise<Row[]> {
  const { engine, curl } = opts;
  const caller: Caller = { kind: "premium", plan: "ultimate" };
  // each link its own query string: twenty distinct sources of the same 20 MB file
  const links = (n: number) => Array.from({ length: n }, (_, i) => `${opts.fileUrl}?n=${i}`);
  opts.log("a 20-link bulk ZIP against 20 single downloads…");
  const zipOf = async (n: number) => {
    const created = await engine.createBulkDownload({ urls: links(n), format: "mp4-360", caller, ip: "127.0.0.1" });
    const got = await curl(created.downloadUrl);
    if (got.code !== 200) throw new Error(`bulk ZIP failed: HTTP ${got.code}`);
    return got;
  };
  await zipOf(2); // warm-up: resolve caches, the first probe
  const singles = await (async () => {
    const started = performance.now();
    let bytes = 0;
    for (const url of links(20)) {
      const created = await engine.createDownload({ url, format: "mp4-360", caller, ip: "127.0.0.1" });
      const got = await curl(created.downloadUrl);
      if (got.code !== 200) throw new Error(`single download failed: HTTP ${got.code}`);
      bytes += got.bytes;
    }
    return { seconds: (performance.now() - started) / 1000, bytes };
  })();
  const small = await withPeakRss(() => zipOf(5));
  const large = await withPeakRss(() => zipOf(20));
  const ratio = large.value.seconds / singles.seconds;
  const rssGrowth = mb(large.growth) - mb(small.growth);
  return [
    {
      row: "Bulk ZIP of 20 links (20 MB files, mp4-360)",
      baseline: `20 single downloads one after another: ${fmt(singles.seconds)} s`,
      measured: `${fmt(large.value.seconds)} s for ${fmt(mb(large.value.bytes), 0)} MB`,
      ratio: `${fmt(ratio)}×`,
      target: "≤ 1.2× the singles' time",
      pass: ratio <= 1.2,
    },
    {
      row: "Peak RSS growth during a bulk ZIP, 20 links against 5",
      baseline: `5 links: +${fmt(mb(small.growth), 1)} MB`,
      measured: `20 links: +${fmt(mb(large.growth), 1)} MB`,
      ratio: "—",
      target: "≤ 16 MB more for 4× the links",
      pass: rssGrowth <= 16,
    },
  ];
}

export async function jobStartRows(opts: { log: (s: string) => void }): Promise<Row[]> {
  opts.log("scheduled jobs' start latency on the embedded database…");
  const database = await openDatabase({ dataDir: null });
  const started = new Map<string, number>();
  const runner = createJobRunner({
    database,
    logger: (await import("pino")).default({ level: "silent" }),
    definitions: [
      {
        queue: "bench-start",
        handler: async (job: { id: string }) => {
          started.set(job.id, Date.now());
        },
        concurrency: 4,
      },
    ],
  });
  try {
    await runner.start();
    const due = new Map<string, number>();
    for (let i = 0; i < 8; i++) {
      const runAt = new Date(Date.now() + 1500 + i * 700);
      due.set(await runner.send("bench-start", { i }, { startAfter: runAt }), runAt.getTime());
    }
    const deadline = Date.now() + 30_000;
    while (started.size < due.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const lags = [...due].map(([id, at]) => (started.get(id) ?? Number.POSITIVE_INFINITY) - at).sort((a, b) => a - b);
    const median = lags[Math.floor(lags.length / 2)]!;
    const worst = lags.at(-1)!;
    return [
      {
        row: "A scheduled job's start after its runAt (8 jobs, PGlite)",
        baseline: "the queue's poll interval: 2 s",
        measured: `median ${fmt(median / 1000)} s, worst ${fmt(worst / 1000)} s`,
        ratio: "—",
        target: "worst ≤ 3 s",
        pass: worst <= 3000,
      },
    ];
  } finally {
    await runner.stop({ timeoutMs: 1000 });
    await database.close();
  }
}
