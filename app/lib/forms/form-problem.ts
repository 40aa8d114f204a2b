import type { z } from "zod";

/** What a form shows for invalid input: one sentence, and the fields to mark invalid. */
export interface FormProblem<F extends string = string> {
  message: string;
  fields: F[];
}

/**
 * Reduce zod issues to what the user sees: any missing required field gives the form's single
 * "required" sentence (the spec's wording); otherwise the first specific problem.
 */
export function summariseIssues<F extends string>(error: z.ZodError, requiredMessage: string): FormProblem<F> {
  const missing = error.issues.filter((i) => i.message === requiredMessage);
  if (missing.length) return { message: requiredMessage, fields: unique(missing.map((i) => String(i.path[0]) as F)) };
  return { message: error.issues[0]?.message ?? requiredMessage, fields: unique(error.issues.map((i) => String(i.path[0]) as F)) };
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/** Form fields as a plain object of strings (files and repeated keys are not used by these forms). */
export function formFields(formData: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of formData) if (typeof value === "string" && !(key in out)) out[key] = value;
  return out;
}

/**
 * What a form action returns, for the fetcher (toasts) and the no-JavaScript page render (inline).
 * `values` come back on failure so nothing the user typed is lost.
 */
export type FormResult<F extends string = string> =
  | { ok: true; title: string; message: string }
  | { ok: false; title: string; message: string; fields: F[]; values?: Partial<Record<F, string>> };
