import type { DownloadProgress, DownloadState, FilesProgress, ProgressError } from "./progress-registry.ts";
import type { RequestKind } from "./link-usage.ts";
import type { ResolvedMedia } from "../types.ts";

/**
 * The engine's per-download runtime state, one interface per concern. The in-process
 * implementations (engine/state/memory.ts) are the embedded default; the host passes shared
 * ones (server/state/, Redis) through EngineDeps.state when several instances serve one site,
 * so a link made on one instance, its stream on a second and its progress on a third agree.
 * Every method that must see other instances' writes is async.
 */

/** Fair use and concurrency: server-wide streams, streams per IP and per link, downloads per IP per hour. */
export interface AdmissionStore {
  /** throws download.rate_limited when the IP is already at its hourly limit (nothing is counted) */
  check(ip: string): Promise<void>;
  /** counts one download start, or throws download.rate_limited; the returned refund is idempotent */
  hit(ip: string): Promise<() => void>;
  /** a server-wide streaming slot, or download.busy; the release is idempotent */
  acquire(): Promise<() => void>;
  /** a slot for this IP and this link, or download.rate_limited; the release is idempotent */
  acquireStream(ip: string, linkId: string): Promise<() => void>;
}

/** Resolve results reused for a short while. Only settled results are stored here. */
export interface ResolveCacheStore {
  get(key: string): Promise<ResolvedMedia | undefined>;
  /** keeps `media` until `expiresAt` (epoch ms) */
  set(key: string, media: ResolvedMedia, expiresAt: number): Promise<void>;
  delete(key: string): Promise<void>;
  clear(): Promise<void>;
}

/** Download progress for the SSE endpoint. Writes are fire-and-forget; readers may be on another instance. */
export interface ProgressStore {
  create(id: string, total: number | null): void;
  /** a new stream of this download starts (a retry or a range request restarts the count) */
  start(id: string, total: number | null, offset?: number): void;
  addBytes(id: string, n: number): void;
  /** a ZIP's files changed (one started, ended or failed); written at once, not throttled */
  setFiles(id: string, files: FilesProgress): void;
  /** ends the download's current stream; a no-op for an id nobody created */
  finish(id: string, state: Exclude<DownloadState, "queued" | "streaming">, error?: ProgressError): void;
  /**
   * calls `fn` with the current progress, then on changes; throws download.not_found for an
   * unknown id. The returned function unsubscribes.
   */
  subscribe(id: string, fn: (p: DownloadProgress) => void): Promise<() => void>;
}

/** What one signed link has delivered (docs/decisions/010-download-links-are-single-use.md). */
export interface LinkUsageStore {
  /**
   * throws download.link_used when this request would replay a used-up link; a shared store
   * that lost its state since `issuedAtMs` refuses a link it does not know (download.link_expired)
   */
  admit(id: string, kind: RequestKind, expiresAtMs: number, issuedAtMs?: number): Promise<void>;
  setSize(id: string, bytes: number | null): Promise<void>;
  addBytes(id: string, n: number): void;
  /** a full request delivered every byte */
  complete(id: string): Promise<void>;
}

export interface EngineState {
  admission: AdmissionStore;
  resolveCache: ResolveCacheStore;
  progress: ProgressStore;
  linkUsage: LinkUsageStore;
  /** stops timers and flushes pending writes; the host closes its own connections */
  close(): Promise<void>;
}

/** The limits the admission store enforces (from EngineConfig.limits). */
export interface AdmissionLimits {
  maxConcurrent: number;
  perIpPerHour: number;
  /** 0 disables */
  perIpConcurrent: number;
  /** 0 disables */
  perLinkConcurrent: number;
  busyRetryAfterSeconds?: number;
}

/** Builds the state for one engine; EngineDeps.state takes one of these. */
export type EngineStateFactory = (opts: { limits: AdmissionLimits; now: () => number }) => EngineState;
