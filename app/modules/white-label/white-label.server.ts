/**
 * The white label (issue 31 §1, Ultimate): what an Ultimate user's API calls give back carries
 * no site name. A ZIP without a chosen name is "Bulk <date>.zip", and the mail about a job made
 * with an API key is sent under the user's sender name (their account name until they set one),
 * with no site name in its subject or text. The site's own pages keep the site's name.
 */
import { eq } from "drizzle-orm";
import { CatalogueError } from "#common/error-catalogue.ts";
import { holds, type PlanId } from "#common/plans.ts";
import type { Database } from "#db/client.ts";
import { users } from "#db/schema/account.ts";
import { whiteLabels } from "#db/schema/white-label.ts";
import { planRequired } from "#engine/refusals.ts";
import { callerOfOwner } from "#app/modules/jobs/scheduled-jobs.server.ts";
import { SENDER_NAME_MAX, SENDER_NAME_RULE } from "./sender-name.ts";

export class WhiteLabelError extends CatalogueError<"white_label.invalid_name"> {
  static override readonly kind = "white_label";
  constructor() {
    super(WhiteLabelError.kind, "white_label.invalid_name", 400, SENDER_NAME_RULE);
  }
}

/** A sender name as it is stored: spaces collapsed; null for an empty one (back to the account's name). */
export function cleanSenderName(raw: string): string | null {
  const name = raw.normalize("NFC").replace(/\s+/g, " ").trim();
  if (!name) return null;
  // a display name, never read as an address or a second header
  if ([...name].length > SENDER_NAME_MAX || /[\p{Cc}\p{Cf}<>"@\\]/u.test(name)) throw new WhiteLabelError();
  return name;
}

export async function senderNameOf(db: Database, userId: string): Promise<string | null> {
  const [row] = await db.select({ senderName: whiteLabels.senderName }).from(whiteLabels).where(eq(whiteLabels.userId, userId)).limit(1);
  return row?.senderName ?? null;
}

/** The name a white-labelled mail to this user is sent under: theirs, else their account's name. */
export async function whiteLabelSender(db: Database, userId: string): Promise<string> {
  const [row] = await db
    .select({ senderName: whiteLabels.senderName, accountName: users.name })
    .from(users)
    .leftJoin(whiteLabels, eq(whiteLabels.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  return row?.senderName ?? row?.accountName ?? "";
}

/** Sets (or, with an empty name, clears) the sender name; only a plan with the white label may. */
export async function saveSenderName(db: Database, owner: { userId: string; plan: PlanId }, raw: string, now = new Date()): Promise<string | null> {
  if (!holds(owner.plan, "whiteLabel")) throw planRequired(callerOfOwner(owner), "whiteLabel");
  const name = cleanSenderName(raw);
  if (name === null) {
    await db.delete(whiteLabels).where(eq(whiteLabels.userId, owner.userId));
    return null;
  }
  await db
    .insert(whiteLabels)
    .values({ userId: owner.userId, senderName: name, updatedAt: now })
    .onConflictDoUpdate({ target: whiteLabels.userId, set: { senderName: name, updatedAt: now } });
  return name;
}
