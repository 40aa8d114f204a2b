import { EngineError } from "../errors.ts";
import { processStreaming, type StreamingActivity } from "../media/streaming-activity.ts";

/**
 * In-process admission: the server-wide concurrency limit, streams per IP and per link, and
 * per-IP fair use. The synchronous registry behind memoryAdmission (memory.ts), which gives it
 * the AdmissionStore interface of types.ts.
 */

export interface Admission {
  /** per-IP fair use without counting (link creation): throws download.rate_limited when the IP is already at its limit */
  check(ip: string): void;
  /**
   * per-IP fair use: counts one download start, or throws download.rate_limited with Retry-After.
   * Returns a refund for a start that never sent a byte (busy, upstream failure, client gone).
   */
  hit(ip: string): () => void;
  /** a server-wide streaming slot, or download.busy with Retry-After; the release is idempotent */
  acquire(): () => void;
  /**
   * a stream slot for this IP and this link (download id), or download.rate_limited (429) with
   * Retry-After when either already has its maximum of streams running; the release is idempotent
   */
  acquireStream(ip: string, linkId: string): () => void;
  active(): number;
}

/** seconds a client is asked to wait when its IP or link already streams the maximum */
const STREAM_CAP_RETRY_AFTER_SECONDS = 5;

export function createAdmission(opts: {
  maxConcurrent: number;
  perIpPerHour: number;
  /** streams one IP may run at once; 0 disables */
  perIpConcurrent?: number;
  /** streams one download link may run at once (a resume next to a stalled first attempt); 0 disables */
  perLinkConcurrent?: number;
  busyRetryAfterSeconds?: number;
  /** where a streaming slot is counted process-wide as well (default: this process's) */
  activity?: StreamingActivity;
  now?: () => number;
  maxTrackedIps?: number;
}): Admission {
  const now = opts.now ?? Date.now;
  const windowMs = 60 * 60 * 1000;
  const hits = new Map<string, number[]>();
  const maxTracked = opts.maxTrackedIps ?? 100_000;
  const perIpConcurrent = opts.perIpConcurrent ?? 0;
  const perLinkConcurrent = opts.perLinkConcurrent ?? 0;
  const streamsByIp = new Map<string, number>();
  const streamsByLink = new Map<string, number>();
  let active = 0;

  const recent = (ip: string, t: number) => (hits.get(ip) ?? []).filter((x) => x > t - windowMs);
  const refuse = (ip: string, list: number[], t: number): never => {
    const retryAfter = Math.max(1, Math.ceil((list[0]! + windowMs - t) / 1000));
    throw new EngineError("download.rate_limited", { retryAfter, detail: `${ip}: ${list.length} downloads in the last hour` });
  };
  const decrement = (map: Map<string, number>, key: string) => {
    const n = (map.get(key) ?? 1) - 1;
    if (n <= 0) map.delete(key);
    else map.set(key, n);
  };

  return {
    check(ip) {
      if (opts.perIpPerHour <= 0) return;
      const t = now();
      const list = recent(ip, t);
      if (list.length >= opts.perIpPerHour) refuse(ip, list, t);
    },
    hit(ip) {
      if (opts.perIpPerHour <= 0) return () => {};
      const t = now();
      const list = recent(ip, t);
      if (list.length >= opts.perIpPerHour) {
        hits.set(ip, list);
        refuse(ip, list, t);
      }
      list.push(t);
      hits.delete(ip); // re-insert: Map order doubles as least-recently-used order
      hits.set(ip, list);
      if (hits.size > maxTracked) {
        const oldest = hits.keys().next().value;
        if (oldest !== undefined) hits.delete(oldest);
      }
      let refunded = false;
      return () => {
        if (refunded) return;
        refunded = true;
        const current = hits.get(ip);
        const i = current?.lastIndexOf(t) ?? -1;
        if (current && i >= 0) current.splice(i, 1);
      };
    },
    acquire() {
      if (active >= opts.maxConcurrent) {
        throw new EngineError("download.busy", { retryAfter: opts.busyRetryAfterSeconds ?? 5, detail: `${active} downloads streaming` });
      }
      active++;
      const ended = (opts.activity ?? processStreaming).begin();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        active--;
        ended();
      };
    },
    acquireStream(ip, linkId) {
      const byIp = streamsByIp.get(ip) ?? 0;
      const byLink = streamsByLink.get(linkId) ?? 0;
      if (perIpConcurrent > 0 && byIp >= perIpConcurrent) {
        throw new EngineError("download.rate_limited", { retryAfter: STREAM_CAP_RETRY_AFTER_SECONDS, detail: `${ip}: ${byIp} streams running` });
      }
      if (perLinkConcurrent > 0 && byLink >= perLinkConcurrent) {
        throw new EngineError("download.rate_limited", { retryAfter: STREAM_CAP_RETRY_AFTER_SECONDS, detail: `${linkId}: ${byLink} streams running` });
      }
      streamsByIp.set(ip, byIp + 1);
      streamsByLink.set(linkId, byLink + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        decrement(streamsByIp, ip);
        decrement(streamsByLink, linkId);
      };
    },
    active: () => active,
  };
}
