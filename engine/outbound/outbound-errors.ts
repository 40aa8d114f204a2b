/**
 * What the outbound door makes of a failed exchange: an EngineError the catalogue knows, whether
 * trying again can help, and how long to wait first.
 */
import { EngineError, isEngineError } from "../errors.ts";

/** socket errors worth another attempt (the next one may reach a healthy peer or route) */
export const RETRYABLE_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
]);

/** The signal's own reason when it is an Error, else the AbortError fetch would throw. */
export function abortError(signal: AbortSignal | null | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  return new DOMException("This operation was aborted", "AbortError");
}

export function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === "AbortError";
}

/** A socket or protocol error becomes `upstream.fetch_failed` naming the host; engine errors and aborts pass as they are. */
export function classifyOutboundError(err: unknown, target: URL): Error {
  if (isEngineError(err) || isAbort(err)) return err as Error;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return new EngineError("upstream.fetch_failed", { detail: `${target.host}: ${code ?? String(err)}`, cause: err });
}

/** Timeouts and transient socket errors are retried; an abort, a refusal or a blocked address never. */
export function isRetryableOutbound(err: Error): boolean {
  if (isAbort(err)) return false;
  if (isEngineError(err)) {
    if (err.code === "upstream.timeout") return true;
    if (err.code !== "upstream.fetch_failed") return false;
    const code = (err.cause as NodeJS.ErrnoException | undefined)?.code;
    return code !== undefined && RETRYABLE_CODES.has(code);
  }
  return false;
}

/** Wait before retry `n` (0-based): doubling from `baseMs`, up to half again as jitter, at most 10 s. */
export function retryBackoff(n: number, baseMs: number, random: () => number = Math.random): number {
  const base = baseMs * 2 ** n;
  return Math.min(base + random() * base * 0.5, 10_000);
}

/** Sleeps `ms`; an abort ends the wait with the signal's reason. */
export function sleepUnlessAborted(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError(signal));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
