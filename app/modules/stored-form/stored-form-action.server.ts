import { data, type AppLoadContext } from "react-router";
import { formFields, type FormResult } from "#app/lib/forms/form-problem.ts";
import { hashClientIp } from "#app/lib/forms/hash-client-ip.server.ts";
import type { ParseResult, StoredFormMessages } from "./stored-form-schema.ts";
import type { Sender, StoredFormDeps } from "./submit-stored-form.server.ts";

/**
 * A stored form's route action: parse the post with the form's schema (400 with the problem and
 * the typed values), store it with the visitor's hashed address and mail the operators, and
 * answer with the form's "sent" or "failed" message (500: never a false success).
 */
export async function storedFormAction<Input, Field extends string>(
  request: Request,
  context: AppLoadContext,
  form: {
    fields: readonly Field[];
    parse: (input: Record<string, unknown>) => ParseResult<Input, Field>;
    messages: Pick<StoredFormMessages, "sent" | "failed">;
    submit: (deps: StoredFormDeps, input: Input, meta: { ipHash: string | null; sender?: Sender | null }) => Promise<{ ok: boolean }>;
    /** who is sending, for a form that treats members apart (the contact form's priority) */
    sender?: (request: Request, context: AppLoadContext) => Promise<Sender | null>;
  },
) {
  const posted = formFields(await request.formData());
  const values = Object.fromEntries(form.fields.map((f) => [f, posted[f] ?? ""])) as Record<Field, string>;
  const parsed = form.parse(posted);
  if (!parsed.ok) {
    return data<FormResult<Field>>({ ok: false, title: "Error", message: parsed.problem.message, fields: parsed.problem.fields, values }, { status: 400 });
  }
  const inbox = context.mailer ? { mailer: context.mailer, contactEmail: context.config.CONTACT_EMAIL, ultimateEmail: context.config.SUPPORT_ULTIMATE_EMAIL, logger: context.logger } : undefined;
  const sender = form.sender ? await form.sender(request, context).catch(() => null) : null;
  const result = await form.submit({ ...context, inbox }, parsed.data, {
    ipHash: hashClientIp(context.clientIp, context.config.DOWNLOAD_SIGNING_SECRET),
    sender,
  });
  if (!result.ok) {
    const m = form.messages.failed;
    return data<FormResult<Field>>({ ok: false, title: m.title, message: m.description, fields: [], values }, { status: 500 });
  }
  const m = form.messages.sent;
  return data<FormResult<Field>>({ ok: true, title: m.title, message: m.description });
}
