/**
 * What of a database error may be logged: its SQLSTATE code (PostgreSQL and PGlite both set
 * `code`, possibly on a wrapped cause). Never the message of a failed query, which quotes the
 * row's values.
 */
export function databaseErrorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}
