import type { Logger } from "pino";
import { parseLink, type PlatformId } from "#common/links.ts";
import type { Engine } from "#engine/index.ts";
import { isEngineError } from "#engine/errors.ts";
import { clientKey, LADDER_CLIENT } from "./client-order.server.ts";
import type { HealthCounts } from "./health-counts.server.ts";
import { DIRECT_EGRESS, recordAttempt, YTDLP_CLIENT, type PlatformHealthStore } from "./health-store.server.ts";

/**
 * The canary (issue 32 §5): each configured link is resolved and its first megabyte fetched
 * through the engine, exactly as a visitor's download runs, and each outcome goes into the
 * platform health record. A YouTube link is then checked once per configured client, that client
 * alone (`clientsOf`): those checks go into the counts per client and egress, which order the
 * clients (client-order.server.ts), and not into the platform's status (one client failing while
 * the ladder works is no trouble for visitors); with several egresses they run on the egress the
 * link's own check took. With more than one egress (`egresses`), every link is also checked once
 * per egress, that egress alone with the clients in their usual order: those go into the counts
 * per egress (client `all` on YouTube, which moves no client; `ytdlp` on the others), not into
 * the status either (the pool moves visitors off a sick egress; decision 063). The canary job
 * (jobs/canary.ts) runs it every CANARY_INTERVAL_MINUTES; `npm run canary` (scripts/canary.ts)
 * once, printing the table.
 */

/** Long-lived public YouTube videos: "Me at the zoo" (2005) and Blender's "Big Buck Bunny". */
export const DEFAULT_CANARY_LINKS = ["https://www.youtube.com/watch?v=jNQXAC9IVRw", "https://www.youtube.com/watch?v=aqz-KE-bpKQ"];

/** the address the canary resolves as: the host leaves these resolves to the canary's own record */
export const CANARY_CLIENT = "canary";
/** what is read of each link: enough to prove the media bytes flow */
export const CANARY_BYTES = 1024 * 1024;
/** the egress of a failed check that was not pinned to one, when there are several */
export const UNKNOWN_EGRESS = "unknown";
/** the smallest video every plan may download (a muxed passthrough on YouTube) */
const CANARY_FORMAT = "mp4-360";
const CHECK_TIMEOUT_MS = 60_000;

export interface CanaryResult {
  link: string;
  /** null for a link that is no platform's (a direct file): checked, but not recorded */
  platform: PlatformId | null;
  /** the one client checked; null: the whole ladder, as a visitor's download asks it */
  client: string | null;
  /** the egress the answer came through (`direct` unless the engine names another; a check of one egress: that one) */
  egress: string;
  /** whether this is the check of one egress (`egress` alone, the clients in their order) */
  pinned: boolean;
  ok: boolean;
  ms: number;
  /** bytes read (CANARY_BYTES, or the whole file when it is smaller) */
  bytes: number;
  /** the engine's error code of a failure */
  code: string | null;
}

export interface CanaryDeps {
  openDownload: Engine["openDownload"];
  store: PlatformHealthStore;
  /** the counts per client and egress (the database's); absent: only the platform record is kept */
  counts?: Pick<HealthCounts, "add">;
  /** the clients to check one by one on a platform's links (YouTube: YOUTUBE_CLIENTS, `ytdlp` only where yt-dlp is); none: the link's one check */
  clientsOf?: (platform: PlatformId) => readonly string[];
  /** the engine's egresses (Engine.egresses): with more than one, each link is also checked on each alone */
  egresses?: readonly string[];
  logger: Pick<Logger, "info" | "warn">;
  now?: () => number;
}

function platformOf(link: string): PlatformId | null {
  const parsed = parseLink(link);
  if (!parsed.ok) return null;
  return parsed.kind === "youtube" ? "youtube" : parsed.kind === "site" ? parsed.site : null;
}

/** Reads up to `limit` bytes, then stops the stream (and with it every upstream and ffmpeg); throws when the stream fails. */
async function readFirstBytes(stream: NodeJS.ReadableStream & { destroy(): void }, limit: number): Promise<{ bytes: number; whole: boolean }> {
  let bytes = 0;
  try {
    for await (const chunk of stream) {
      bytes += (chunk as Buffer).length;
      if (bytes >= limit) return { bytes, whole: false };
    }
    return { bytes, whole: true };
  } finally {
    stream.destroy();
  }
}

/** One link (with `pin.client`: that client alone; with `pin.egress`: that egress alone): open it, read its first megabyte. Never throws: a failure is a result. */
export async function checkLink(
  link: string,
  deps: Pick<CanaryDeps, "openDownload" | "now" | "egresses">,
  signal?: AbortSignal,
  pin: { client?: string; egress?: string } = {},
): Promise<CanaryResult> {
  const now = deps.now ?? Date.now;
  const started = now();
  const platform = platformOf(link);
  const timeout = AbortSignal.timeout(CHECK_TIMEOUT_MS);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const which = { link, platform, client: pin.client ?? null, pinned: pin.egress !== undefined && pin.client === undefined };
  try {
    const opened = await deps.openDownload({
      url: link,
      format: CANARY_FORMAT,
      caller: { kind: "anonymous" },
      ip: CANARY_CLIENT,
      signal: both,
      ...(pin.client ? { clients: [pin.client] } : {}),
      ...(pin.egress !== undefined ? { egress: pin.egress } : {}),
    });
    const { bytes, whole } = await readFirstBytes(opened.stream, CANARY_BYTES);
    // a file smaller than a megabyte passes when it came whole (its stream ended without an error)
    const ok = bytes >= CANARY_BYTES || (whole && bytes > 0);
    return { ...which, egress: opened.egress ?? pin.egress ?? DIRECT_EGRESS, ok, ms: now() - started, bytes, code: ok ? null : "download.failed" };
  } catch (err) {
    const code = timeout.aborted ? "upstream.timeout" : isEngineError(err) ? err.code : "internal";
    // a failure names no egress: the pinned one, else the only one there is, else it is not known
    const egress = pin.egress ?? (deps.egresses === undefined ? DIRECT_EGRESS : deps.egresses.length === 1 ? deps.egresses[0]! : UNKNOWN_EGRESS);
    return { ...which, egress, ok: false, ms: now() - started, bytes: 0, code };
  }
}

/**
 * Checks the links one after another (gentle on the platforms): each link as a visitor's download
 * runs (recorded as the platform's), then each of its platform's clients alone (counted per client),
 * then, with more than one egress, each egress alone (counted per egress).
 */
export async function runCanary(links: readonly string[], deps: CanaryDeps, signal?: AbortSignal): Promise<CanaryResult[]> {
  const results: CanaryResult[] = [];
  const now = deps.now ?? Date.now;
  const count = (r: CanaryResult, client: string) => {
    if (r.platform) deps.counts?.add({ platform: r.platform, client, egress: r.egress, source: "canary", ok: r.ok, code: r.code, at: now() });
  };
  for (const link of links) {
    if (signal?.aborted) break;
    const result = await checkLink(link, deps, signal);
    results.push(result);
    log(deps.logger, result);
    if (!result.platform) continue;
    recordAttempt(deps.store, { platform: result.platform, ok: result.ok, code: result.code, source: "canary" }, { logger: deps.logger, now: deps.now });
    const clients = deps.clientsOf?.(result.platform) ?? [];
    // a platform yt-dlp reads has one client: the link's check is its check
    if (clients.length === 0) count(result, YTDLP_CLIENT);
    const egresses = deps.egresses ?? [];
    // with several egresses, each client is checked on the egress the link's check took, so its row names where it ran
    const on = egresses.length > 1 && result.ok && egresses.includes(result.egress) ? { egress: result.egress } : {};
    for (const client of clients) {
      if (signal?.aborted) break;
      const alone = await checkLink(link, deps, signal, { client, ...on });
      results.push(alone);
      log(deps.logger, alone);
      count(alone, client);
    }
    // one egress is the one every check above took
    for (const egress of egresses.length > 1 ? egresses : []) {
      if (signal?.aborted) break;
      const alone = await checkLink(link, deps, signal, { egress });
      results.push(alone);
      log(deps.logger, alone);
      count(alone, clients.length === 0 ? YTDLP_CLIENT : LADDER_CLIENT);
    }
  }
  return results;
}

function log(logger: CanaryDeps["logger"], r: CanaryResult): void {
  logger.info({ platform: r.platform, client: r.client ?? undefined, egress: r.egress, pinned: r.pinned || undefined, ok: r.ok, ms: r.ms, bytes: r.bytes, code: r.code }, r.ok ? "canary passed" : "canary failed");
}

/**
 * The results as a plain-text table, one row per check: each link (client "all": the whole ladder),
 * then each of its clients alone, then each egress alone (client "all", egress marked "(alone)").
 */
export function canaryTable(results: readonly CanaryResult[]): string {
  const rows = [
    ["link", "platform", "client", "egress", "result", "time", "failure"],
    ...results.map((r) => [r.link, r.platform ?? "-", r.client ?? "all", r.pinned ? `${r.egress} (alone)` : r.egress, r.ok ? "ok" : "FAILED", `${(r.ms / 1000).toFixed(1)} s`, r.code ?? "-"]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd()).join("\n");
}

/**
 * The clients the canary checks one by one on a platform's links: YouTube's configured ladder
 * (`YOUTUBE_CLIENTS`; `ytdlp` only on a server that has yt-dlp), none on the others.
 */
export function canaryClientsOf(configured: readonly string[], hasYtdlp: boolean): (platform: PlatformId) => readonly string[] {
  const clients = [...new Set(configured.map(clientKey).filter((c) => c !== "" && (c !== YTDLP_CLIENT || hasYtdlp)))];
  return (platform) => (platform === "youtube" ? clients : []);
}

/** CANARY_LINKS, else the mock platform's YouTube videos under MOCKS=true, else DEFAULT_CANARY_LINKS. */
export function canaryLinksFor(config: { CANARY_LINKS?: string }, mocks: { exampleLinks: readonly string[] } | null): string[] {
  if (config.CANARY_LINKS) return config.CANARY_LINKS.split(",").map((l) => l.trim()).filter(Boolean);
  if (mocks) return mocks.exampleLinks.filter((l) => platformOf(l) === "youtube" && !l.includes("list=")).slice(0, 2);
  return [...DEFAULT_CANARY_LINKS];
}
