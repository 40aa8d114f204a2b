import type { z } from "zod";
import { summariseIssues, type FormProblem } from "#app/lib/forms/form-problem.ts";

/**
 * A form whose submissions are stored for the operators (the contact form, platform requests):
 * what the browser and the server share. Each form brings its zod schema, its messages and its
 * fields; this holds the parts they have in common. `website` is a honeypot in every such form:
 * hidden from people, filled in by bots.
 */
export interface StoredFormMessages {
  required: string;
  invalidEmail: string;
  tooLong: string;
  sent: { title: string; description: string };
  failed: { title: string; description: string };
}

export type ParseResult<Input, Field extends string> = { ok: true; data: Input } | { ok: false; problem: FormProblem<Field> };

/** The parse function of a stored form: the schema's output, or the one problem the form shows. */
export function storedFormParser<S extends z.ZodType, Field extends string>(
  schema: S,
  messages: Pick<StoredFormMessages, "required">,
): (input: Record<string, unknown>) => ParseResult<z.output<S>, Field> {
  return (input) => {
    const result = schema.safeParse(input);
    if (result.success) return { ok: true, data: result.data };
    return { ok: false, problem: summariseIssues<Field>(result.error, messages.required) };
  };
}
