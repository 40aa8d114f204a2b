import { pino, stdSerializers, type Logger } from "pino";
import { databaseErrorCode } from "#db/errors.ts";
import type { AppConfig } from "./config.ts";

/**
 * A query error from the database layer carries the statement's parameters (a contact message,
 * an email address) in its message, its stack and a `params` field. Logs keep the SQLSTATE code
 * and the statement's shape, never the values.
 */
export function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return stdSerializers.err(err as Error);
  const withParams = err as Error & { params?: unknown; query?: unknown };
  if (!("params" in withParams)) {
    const out = stdSerializers.err(err) as unknown as Record<string, unknown>;
    // PostgreSQL's detail/where fields can quote the row's values ("Key (email)=(...)")
    for (const field of ["detail", "where", "internalQuery", "parameters"]) delete out[field];
    return out;
  }
  const query = typeof withParams.query === "string" ? withParams.query : undefined;
  const message = `Failed query: ${query ?? "(unknown)"} (parameters omitted from logs)`;
  const frames = (err.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  return {
    type: err.name || "Error",
    message,
    stack: [message, ...frames].join("\n"),
    code: databaseErrorCode(err),
    cause: err.cause instanceof Error ? { type: err.cause.name, code: databaseErrorCode(err.cause) } : undefined,
  };
}

export function createLogger(config: Pick<AppConfig, "LOG_LEVEL">): Logger {
  return pino({
    level: config.LOG_LEVEL,
    redact: { paths: ["req.headers.cookie", "req.headers.authorization", "*.password", "*.signingSecret", "*.DOWNLOAD_SIGNING_SECRET", "*.AUTH_SECRET"], remove: true },
    serializers: { err: serializeError },
  });
}
