import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { newsletterSubscribers } from "#db/schema/index.ts";
import { verifyNewsletterToken, type NewsletterTokenPurpose } from "./newsletter-token.server.ts";

/**
 * What a confirm or unsubscribe link finds. `invalid`: not a link we signed (or for the other
 * purpose); `expired`: a confirm link past its window; `gone`: signed, but its address is no
 * longer on the list (unsubscribed, or deleted unconfirmed).
 */
export type LinkState = "invalid" | "expired" | "gone" | "unconfirmed" | "confirmed";

export interface LinkLookup {
  state: LinkState;
  /** shown on the page, so its owner sees which address the link is for */
  email?: string;
}

async function lookup(db: Database, key: Buffer, purpose: NewsletterTokenPurpose, token: string | null, now: Date): Promise<LinkLookup & { id?: string }> {
  const verified = verifyNewsletterToken(key, purpose, token, now);
  if (!verified.ok) return { state: verified.reason };
  const t = newsletterSubscribers;
  const [row] = await db.select({ id: t.id, email: t.email, confirmedAt: t.confirmedAt }).from(t).where(eq(t.id, verified.subscriberId));
  if (!row) return { state: "gone" };
  return { id: row.id, email: row.email, state: row.confirmedAt ? "confirmed" : "unconfirmed" };
}

/** The state a link's page shows (GET): reads only, because mail scanners open links too. */
export async function readNewsletterLink(db: Database, key: Buffer, purpose: NewsletterTokenPurpose, token: string | null, now: Date = new Date()): Promise<LinkLookup> {
  return withoutId(await lookup(db, key, purpose, token, now));
}

/** The confirm button (POST): the address becomes a subscriber. Confirming twice is fine. */
export async function confirmSubscription(db: Database, key: Buffer, token: string | null, now: Date = new Date()): Promise<LinkLookup> {
  const found = await lookup(db, key, "confirm", token, now);
  if (found.state !== "unconfirmed" || !found.id) return withoutId(found);
  const t = newsletterSubscribers;
  await db.update(t).set({ confirmedAt: now }).where(and(eq(t.id, found.id), isNull(t.confirmedAt)));
  return { email: found.email, state: "confirmed" };
}

/**
 * The unsubscribe button, or a mail client's one-click POST (RFC 8058): the row is deleted, so
 * nothing of the address stays. Unsubscribing twice is fine (the second finds it gone).
 */
export async function unsubscribe(db: Database, key: Buffer, token: string | null, now: Date = new Date()): Promise<LinkLookup> {
  const found = await lookup(db, key, "unsubscribe", token, now);
  if (!found.id) return withoutId(found);
  await db.delete(newsletterSubscribers).where(eq(newsletterSubscribers.id, found.id));
  return { email: found.email, state: "gone" };
}

function withoutId(found: LinkLookup & { id?: string }): LinkLookup {
  const { id: _id, ...shown } = found;
  return shown;
}
