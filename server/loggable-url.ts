/**
 * The form of a request URL that access logs keep. A signed download link is replayable until
 * it expires, so its token is replaced by the download id it names; query values (search
 * words, the video link a visitor pasted) are user content, so only their names are kept.
 */
export function loggableUrl(raw: string): string {
  const q = raw.indexOf("?");
  let path = q === -1 ? raw : raw.slice(0, q);
  const query = q === -1 ? "" : raw.slice(q + 1);
  const dl = /^\/api\/v1\/dl\/([^/?#]*)/.exec(path);
  if (dl) path = `/api/v1/dl/[download ${downloadIdOf(dl[1] ?? "")}]`;
  if (!query) return path;
  const names = query
    .split("&")
    .filter(Boolean)
    .map((pair) => (pair.split("=")[0] ?? "").slice(0, 40));
  return `${path}?${names.map((n) => `${n}=…`).join("&")}`;
}

/** The id inside a token's payload, unverified (a log line only); never the token itself. */
function downloadIdOf(token: string): string {
  try {
    const body = token.slice(0, token.indexOf("."));
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { d?: unknown };
    if (typeof payload.d === "string" && /^[\w-]{1,64}$/.test(payload.d)) return payload.d;
  } catch {
    // not a token of ours: nothing of it is logged
  }
  return "unreadable";
}
