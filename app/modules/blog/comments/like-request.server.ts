import type { Database } from "#db/client.ts";
import { likeComment } from "./comments.server.ts";
import { COMMENT_MESSAGES, type CommentMessage } from "./messages.ts";
import type { AttemptLimiter, LimitRule } from "#app/lib/attempt-limiter.server.ts";

/** Likes counted per client address and article in an hour: enough for a reader, useless for inflating. */
export const LIKE_LIMIT = { limit: 10, windowMs: 60 * 60 * 1000 } as const satisfies LimitRule;

export type LikeOutcome =
  | { ok: true; likes: number }
  | { ok: false; reason: "no_visitor" | "not_found"; message: CommentMessage }
  | { ok: false; reason: "rate_limited"; message: CommentMessage; retryAfterSeconds: number };

/**
 * A like from a request. It counts only for a visitor id the browser already had before this
 * request (the article page sets one on the first view), so dropping the cookie does not make
 * every request a new visitor; and likes from one address to one article are rate-limited.
 */
export async function registerLike(
  db: Database,
  input: { commentId: string; articleSlug: string; existingVisitorId: string | null; ip: string },
  /** the host's limiter: in this process, or shared by every instance (REDIS_URL) */
  deps: { limiter: AttemptLimiter },
): Promise<LikeOutcome> {
  if (!input.existingVisitorId) return { ok: false, reason: "no_visitor", message: COMMENT_MESSAGES.likeNeedsVisitor };
  const allowed = await deps.limiter.hit(`blog-like:${input.ip}:${input.articleSlug}`, LIKE_LIMIT);
  if (!allowed.allowed) return { ok: false, reason: "rate_limited", message: COMMENT_MESSAGES.likeRateLimited, retryAfterSeconds: allowed.retryAfterSeconds };
  const res = await likeComment(db, { commentId: input.commentId, articleSlug: input.articleSlug, visitorId: input.existingVisitorId });
  return res.ok ? { ok: true, likes: res.likes } : { ok: false, reason: "not_found", message: COMMENT_MESSAGES.likeNotFound };
}
