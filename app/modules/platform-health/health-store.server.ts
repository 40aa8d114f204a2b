import type { Logger } from "pino";
import { PLATFORMS, type PlatformId } from "#common/links.ts";
import { healthVerdict, isPlatformFailure, KEPT_OUTCOMES, recordsHealth, type HealthCounts as StatusCounts, type HealthOutcome, type HealthSource, type HealthStatus } from "./health-rule.ts";
import type { HealthCounts } from "./health-counts.server.ts";

/** the egress of an answer that names none */
export const DIRECT_EGRESS = "direct";
/** the client name of yt-dlp's answers */
export const YTDLP_CLIENT = "ytdlp";

/**
 * The platform health record (issue 32 §5): per platform, its newest outcomes and when a link of
 * it last worked. In this process by default; in Redis when REDIS_URL is set
 * (server/state/redis-platform-health.ts), so every instance answers the same status.
 */
export interface PlatformHealthStore {
  record(platform: PlatformId, outcome: HealthOutcome): Promise<void>;
  /** the newest outcomes (at most KEPT_OUTCOMES, any order) and the last success (epoch ms) */
  read(platform: PlatformId): Promise<{ outcomes: HealthOutcome[]; lastSuccessAt: number | null }>;
}

export function memoryPlatformHealth(): PlatformHealthStore {
  const byPlatform = new Map<PlatformId, { outcomes: HealthOutcome[]; lastSuccessAt: number | null }>();
  return {
    async record(platform, outcome) {
      const entry = byPlatform.get(platform) ?? { outcomes: [], lastSuccessAt: null };
      entry.outcomes.push(outcome);
      if (entry.outcomes.length > KEPT_OUTCOMES) entry.outcomes.splice(0, entry.outcomes.length - KEPT_OUTCOMES);
      if (outcome.ok) entry.lastSuccessAt = Math.max(entry.lastSuccessAt ?? 0, outcome.at);
      byPlatform.set(platform, entry);
    },
    async read(platform) {
      const entry = byPlatform.get(platform);
      return { outcomes: entry ? [...entry.outcomes] : [], lastSuccessAt: entry?.lastSuccessAt ?? null };
    },
  };
}

/** One resolve or canary check of a platform's link, as the engine or the canary reports it. */
export interface PlatformAttempt {
  platform: PlatformId;
  ok: boolean;
  /** the engine's error code of a failure */
  code?: string | null;
  source: HealthSource;
}

/**
 * Records an attempt when it says something about the platform (recordsHealth): fire and forget,
 * a store that fails is logged, never in the caller's way.
 */
export function recordAttempt(store: PlatformHealthStore, attempt: PlatformAttempt, opts: { logger: Pick<Logger, "warn">; now?: () => number }): void {
  const code = attempt.ok ? null : (attempt.code ?? "internal");
  if (code !== null && !recordsHealth(code)) return;
  const outcome: HealthOutcome = { at: (opts.now ?? Date.now)(), ok: attempt.ok, code, source: attempt.source };
  store.record(attempt.platform, outcome).catch((err: unknown) => opts.logger.warn({ err, platform: attempt.platform }, "could not record the platform's health"));
}

/** A failure that says something about the client that met it: a platform failure or a ladder verdict (client.*), never a video's own state or our refusal. */
function countsAgainstClient(code: string): boolean {
  return code.startsWith("client.") || (recordsHealth(code) && isPlatformFailure({ ok: false, code }));
}

/** What the engine reports of a resolve (engine/index.ts ResolveOutcome, without importing the engine). */
export interface ResolvedReport {
  platform: PlatformId;
  ok: boolean;
  code: string | null;
  client: string | undefined;
  /** each platform client asked; an InnerTube client's refusal that is not the video's final word counts against it */
  clients?: ReadonlyArray<{ client: string; ok: boolean; code: string | null }>;
  egress?: string;
}

/** What the engine reports of a finished stream (engine DownloadFinished's fields used here). */
export interface FinishedReport {
  platform?: PlatformId;
  complete: boolean;
  error?: string;
  client?: string;
  egress?: string;
  ip?: string;
}

/**
 * The engine's hooks, as the host wires them: a fresh resolve (the canary's own excepted, it
 * records its checks itself), and a download's stream that delivered its file whole or failed on
 * our side (a client that left, or a resume that stopped short, says nothing of the platform).
 * Each also goes into the counts per client and egress (`counts`, health-counts.server.ts).
 */
export function healthRecorder(
  store: PlatformHealthStore,
  opts: { logger: Pick<Logger, "warn">; ignoreClient?: string; now?: () => number; counts?: Pick<HealthCounts, "add"> },
) {
  const now = opts.now ?? Date.now;
  return {
    resolved(outcome: ResolvedReport): void {
      if (opts.ignoreClient !== undefined && outcome.client === opts.ignoreClient) return;
      recordAttempt(store, { platform: outcome.platform, ok: outcome.ok, code: outcome.code, source: "resolve" }, opts);
      if (!opts.counts) return;
      const at = now();
      for (const a of outcome.clients ?? []) {
        // yt-dlp's answer may be the video's own state (private…); an InnerTube client's refusal here never is (the ladder keeps those out)
        if (!a.ok && a.client === YTDLP_CLIENT && !countsAgainstClient(a.code ?? "internal")) continue;
        opts.counts.add({ platform: outcome.platform, client: a.client, egress: outcome.egress ?? DIRECT_EGRESS, source: "resolve", ok: a.ok, code: a.code, at });
      }
    },
    downloadFinished(event: FinishedReport): void {
      if (!event.platform || !(event.complete || event.error)) return;
      if (opts.ignoreClient !== undefined && event.ip === opts.ignoreClient) return;
      recordAttempt(store, { platform: event.platform, ok: event.complete, code: event.error, source: "download" }, opts);
      if (!opts.counts || (!event.complete && !countsAgainstClient(event.error ?? "internal"))) return;
      const code = event.complete ? null : (event.error ?? "internal");
      opts.counts.add({ platform: event.platform, client: event.client ?? "unknown", egress: event.egress ?? DIRECT_EGRESS, source: "download", ok: event.complete, code, at: now() });
    },
  };
}

export interface PlatformHealth {
  id: PlatformId;
  name: string;
  status: HealthStatus;
  /** ISO time, or null when no link of it has worked since the record began */
  lastSuccessAt: string | null;
  detail: string | null;
  counts: StatusCounts;
}

/** The platforms this server serves: YouTube always, yt-dlp's only when the server has yt-dlp. */
export function servedPlatforms(caps: { ytdlp: boolean }): PlatformId[] {
  return PLATFORMS.filter((p) => p.reader === "native" || caps.ytdlp).map((p) => p.id);
}

/** Each platform's health now, in the platform table's order. */
export async function readPlatformHealth(store: PlatformHealthStore, platforms: readonly PlatformId[], now: number = Date.now()): Promise<PlatformHealth[]> {
  return Promise.all(
    platforms.map(async (id) => {
      const name = PLATFORMS.find((p) => p.id === id)?.name ?? id;
      const { outcomes, lastSuccessAt } = await store.read(id);
      const verdict = healthVerdict(name, outcomes, now);
      return { id, name, status: verdict.status, lastSuccessAt: lastSuccessAt === null ? null : new Date(lastSuccessAt).toISOString(), detail: verdict.detail, counts: verdict.counts };
    }),
  );
}
