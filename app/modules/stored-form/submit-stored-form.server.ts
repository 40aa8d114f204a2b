import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { databaseErrorCode } from "#db/errors.ts";
import type { Database } from "#db/client.ts";
import type { PlanId } from "#common/plans.ts";
import { notifyOperators, type OperatorInbox, type OperatorMail } from "./notify-operators.server.ts";

/** Where one stored form's submissions go: its table, its mail to the operators, its log lines. */
export interface StoredFormStore<Input, Code extends string> {
  /** writes the row; `id` is chosen here so a failure can be logged by id, never by content */
  insert(db: Database, row: { id: string; ipHash: string | null; sender: Sender | null }, input: Input): Promise<unknown>;
  mail(id: string, input: Input, sender: Sender | null): OperatorMail;
  /** the error code a failed write answers with */
  storeFailed: Code;
  logs: { discarded: string; failed: string; stored: string };
}

export type StoredFormResult<Code extends string> =
  /** `mailed`: the operators' mail, handed over in the background (resolves false without CONTACT_EMAIL) */
  | { ok: true; stored: boolean; mailed?: Promise<boolean> }
  /** the submission could not be stored: the visitor must be told, never shown a false success */
  | { ok: false; code: Code };

/** Who sent a form, when they were signed in: their plan (priority support, the Ultimate address). */
export interface Sender {
  plan: PlanId;
}

export interface StoredFormDeps {
  db: Database;
  logger: Logger;
  inbox?: OperatorInbox;
}

/**
 * Store one validated submission, then mail it to the operators (CONTACT_EMAIL) without making
 * the visitor wait. A filled honeypot stores nothing but reports success, so the bot learns
 * nothing. A database failure is logged and returned, never swallowed.
 */
export async function submitStoredForm<Input extends { website: string }, Code extends string>(
  store: StoredFormStore<Input, Code>,
  deps: StoredFormDeps,
  input: Input,
  meta: { ipHash: string | null; sender?: Sender | null },
): Promise<StoredFormResult<Code>> {
  const sender = meta.sender ?? null;
  if (input.website.trim() !== "") {
    deps.logger.info({ ipHash: meta.ipHash }, store.logs.discarded);
    return { ok: true, stored: false };
  }
  const id = randomUUID();
  try {
    await store.insert(deps.db, { id, ipHash: meta.ipHash, sender }, input);
  } catch (err) {
    deps.logger.error({ id, dbCode: databaseErrorCode(err) }, store.logs.failed);
    return { ok: false, code: store.storeFailed };
  }
  deps.logger.info({ id, ipHash: meta.ipHash }, store.logs.stored);
  const mailed = deps.inbox ? notifyOperators(deps.inbox, store.mail(id, input, sender)) : Promise.resolve(false);
  return { ok: true, stored: true, mailed };
}
