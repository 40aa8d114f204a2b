import { and, isNull, lt, or, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { databaseErrorCode } from "#db/errors.ts";
import { pruneThrottle } from "#app/lib/prune-throttle.ts";
import type { Database } from "#db/client.ts";
import { newsletterSubscribers } from "#db/schema/index.ts";
import type { Subscriber } from "./newsletter-mail.server.ts";
import type { NewsletterErrorCode } from "./newsletter-messages.ts";
import type { NewsletterInput } from "./newsletter-schema.ts";
import { NEWSLETTER_CONFIRM_MS, NEWSLETTER_RESEND_AFTER_MS } from "./newsletter-rules.ts";

export type SubscribeResult =
  /**
   * confirm: the address to mail a confirmation link to (a new address, or an unconfirmed one
   * whose last link went out over an hour ago); null for a confirmed address, a repeat within
   * the hour or a honeypot hit. The visitor is answered the same in every case.
   */
  | { ok: true; confirm: Subscriber | null }
  | { ok: false; code: NewsletterErrorCode };

/**
 * Subscribe one address, unconfirmed until its owner opens the mailed link (double opt-in,
 * decision 044). Idempotent: one row per address (the unique email column decides), and the
 * decision to mail is taken in the same statement, so concurrent repeats send one link.
 */
export async function subscribeToNewsletter(
  deps: { db: Database; logger: Logger },
  input: NewsletterInput,
  meta: { source?: string; now?: Date } = {},
): Promise<SubscribeResult> {
  if (input.website.trim() !== "") {
    deps.logger.info("newsletter: honeypot filled, subscription discarded");
    return { ok: true, confirm: null };
  }
  const now = meta.now ?? new Date();
  const t = newsletterSubscribers;
  try {
    await pruneUnconfirmed(deps.db, now);
    const rows = await deps.db
      .insert(t)
      .values({ email: input.email, source: meta.source ?? "blog", createdAt: now, confirmSentAt: now })
      .onConflictDoUpdate({
        target: t.email,
        set: { confirmSentAt: now },
        setWhere: and(isNull(t.confirmedAt), or(isNull(t.confirmSentAt), lt(t.confirmSentAt, new Date(now.getTime() - NEWSLETTER_RESEND_AFTER_MS)))),
      })
      .returning({ id: t.id, email: t.email });
    return { ok: true, confirm: rows[0] ?? null };
  } catch (err) {
    deps.logger.error({ dbCode: databaseErrorCode(err) }, "newsletter: could not store the subscription");
    return { ok: false, code: "newsletter.store_failed" };
  }
}

const pruneDue = pruneThrottle();

/**
 * Deletes the addresses nobody confirmed within the confirm window of their last link (the
 * privacy policy's promise). Counted from the last mail, so a re-sent link is never orphaned.
 */
export async function pruneUnconfirmed(db: Database, now: Date = new Date(), opts: { force?: boolean } = {}): Promise<void> {
  if (!pruneDue(db, now, opts.force)) return;
  const t = newsletterSubscribers;
  const cutoff = new Date(now.getTime() - NEWSLETTER_CONFIRM_MS);
  await db.delete(t).where(and(isNull(t.confirmedAt), sql`coalesce(${t.confirmSentAt}, ${t.createdAt}) < ${cutoff.toISOString()}::timestamptz`));
}
