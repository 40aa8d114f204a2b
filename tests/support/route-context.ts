import { createMemoryLimiter } from "#app/lib/attempt-limiter.server.ts";
import pino, { type Logger } from "pino";
import type { Database } from "#db/client.ts";

/** one per test process, like a server's: a test's addresses keep their counts across calls */
const blogLimiter = createMemoryLimiter();

/**
 * The router context a loader or action sees, for calling route modules directly in tests
 * (only what the information pages read: db, logger, client address, config secret).
 */
export function routeContext(db: Database | null, opts: { logger?: Logger; clientIp?: string } = {}) {
  return {
    db,
    blogLimiter,
    logger: opts.logger ?? pino({ level: "silent" }),
    clientIp: opts.clientIp ?? "203.0.113.7",
    config: { DOWNLOAD_SIGNING_SECRET: "test-secret-test-secret-test-secret-1234" },
  };
}

/** A recording logger: every call at warn and above, with its object and message. */
export function recordingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

export function formPost(url: string, fields: Record<string, string>): Request {
  return new Request(url, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } });
}

/** The body and status of what a loader/action returned (a plain value, `data()` or a Response). */
export async function unwrap(result: unknown): Promise<{ status: number; body: unknown }> {
  if (result instanceof Response) return { status: result.status, body: await result.json() };
  if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
    const r = result as { data: unknown; init: ResponseInit | null };
    return { status: r.init?.status ?? 200, body: r.data };
  }
  return { status: 200, body: result };
}

/** Run a loader/action the way the router does: a thrown Response (redirect) is its answer. */
export async function callRoute(fn: (args: never) => unknown, request: Request, context: object): Promise<unknown> {
  try {
    return await fn({ request, context, params: {} } as never);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
