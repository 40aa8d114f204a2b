import type { Logger } from "pino";
import { databaseErrorCode } from "#db/errors.ts";
import type { Database } from "#db/client.ts";
import { newsletterSubscribers } from "#db/schema/index.ts";
import type { NewsletterInput } from "./newsletter-schema.ts";

export type SubscribeResult =
  /** created: a new row; false for a repeat address or a honeypot hit (same answer to the user) */
  | { ok: true; created: boolean }
  | { ok: false; code: "newsletter.store_failed" };

/**
 * Subscribe one address. Idempotent: subscribing twice answers the same and keeps one row
 * (the unique email column decides, so concurrent repeats are safe too).
 */
export async function subscribeToNewsletter(
  deps: { db: Database; logger: Logger },
  input: NewsletterInput,
  meta: { source?: string } = {},
): Promise<SubscribeResult> {
  if (input.website.trim() !== "") {
    deps.logger.info("newsletter: honeypot filled, subscription discarded");
    return { ok: true, created: false };
  }
  try {
    const rows = await deps.db
      .insert(newsletterSubscribers)
      .values({ email: input.email, source: meta.source ?? "blog" })
      .onConflictDoNothing({ target: newsletterSubscribers.email })
      .returning({ id: newsletterSubscribers.id });
    return { ok: true, created: rows.length > 0 };
  } catch (err) {
    deps.logger.error({ dbCode: databaseErrorCode(err) }, "newsletter: could not store the subscription");
    return { ok: false, code: "newsletter.store_failed" };
  }
}
