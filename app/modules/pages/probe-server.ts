/**
 * Ask our own server whether it is reachable (the "Check Again" button on /connection-status):
 * GET /healthz, never from a cache, given up after a timeout.
 */
export type ProbeResult =
  | { ok: true; latencyMs: number }
  | { ok: false; reason: "timeout" | "unreachable" | "server-error"; status?: number; latencyMs: number };

export const PROBE_TIMEOUT_MS = 5000;

export async function probeServer(opts: { fetch?: typeof fetch; timeoutMs?: number; now?: () => number; url?: string } = {}): Promise<ProbeResult> {
  const doFetch = opts.fetch ?? fetch;
  const now = opts.now ?? (() => performance.now());
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs ?? PROBE_TIMEOUT_MS);
  const started = now();
  try {
    const res = await doFetch(opts.url ?? "/healthz", { cache: "no-store", signal: controller.signal, headers: { accept: "application/json" } });
    const latencyMs = Math.round(now() - started);
    if (!res.ok) return { ok: false, reason: "server-error", status: res.status, latencyMs };
    return { ok: true, latencyMs };
  } catch {
    // fetch rejects on network failure or abort; the reason is all the user needs.
    return { ok: false, reason: timedOut ? "timeout" : "unreachable", latencyMs: Math.round(now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

/** What the page says about a probe (wording from spec §8's friendly mapper where it fits). */
export function describeProbe(result: ProbeResult): string {
  if (result.ok) return `Our servers answered in ${result.latencyMs} ms.`;
  switch (result.reason) {
    case "timeout":
      return "The request timed out. Please try again when you have a stronger connection.";
    case "server-error":
      return `Our servers are experiencing an issue (status ${result.status}). Please try again later.`;
    default:
      return "Unable to connect to our servers. Please check your internet connection or try again later.";
  }
}
