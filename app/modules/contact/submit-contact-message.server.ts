import { holds, PLANS } from "#common/plans.ts";
import { contactMessages } from "#db/schema/index.ts";
import { submitStoredForm, type Sender, type StoredFormDeps, type StoredFormResult, type StoredFormStore } from "#app/modules/stored-form/submit-stored-form.server.ts";
import type { ContactErrorCode, ContactInput } from "./contact-schema.ts";

export type SubmitContactResult = StoredFormResult<ContactErrorCode>;

/** a message from a plan with priority support is answered first */
function isPriority(sender: Sender | null): boolean {
  return sender !== null && holds(sender.plan, "prioritySupport");
}

/** Contact messages: the contact_messages table, and a mail the operators can answer (replies go to the visitor). */
const CONTACT_STORE: StoredFormStore<ContactInput, ContactErrorCode> = {
  insert: (db, row, input) =>
    db.insert(contactMessages).values({
      id: row.id,
      name: input.name,
      email: input.email,
      subject: input.subject,
      message: input.message,
      ipHash: row.ipHash,
      plan: row.sender?.plan ?? null,
      priority: isPriority(row.sender),
    }),
  mail: (id, input, sender) => {
    const priority = isPriority(sender);
    const tag = priority && sender ? `[Priority · ${PLANS[sender.plan].name}] ` : "";
    return {
      subject: `${tag}Contact form: ${input.subject.trim() || "(no subject)"}`,
      text: `${input.name} <${input.email}> wrote through the contact form${sender ? ` (signed in, ${PLANS[sender.plan].name} plan)` : ""}:\n\n${input.message}\n\n(Message ${id}. Reply to this mail to answer ${input.name}.)\n`,
      replyTo: input.email,
      ultimate: sender?.plan === "ultimate",
    };
  },
  storeFailed: "contact.store_failed",
  logs: {
    discarded: "contact form: honeypot filled, message discarded",
    failed: "contact form: could not store the message",
    stored: "contact form: message stored",
  },
};

/** Store one validated contact message and mail it to the operators (see submitStoredForm). */
export function submitContactMessage(deps: StoredFormDeps, input: ContactInput, meta: { ipHash: string | null; sender?: Sender | null }): Promise<SubmitContactResult> {
  return submitStoredForm(CONTACT_STORE, deps, input, meta);
}
