import { Send } from "#app/components/icons.ts";
import { Button } from "#app/components/ui/button.tsx";
import { Input, Textarea } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import type { FormResult } from "#app/lib/forms/form-problem.ts";
import { FormStatus } from "#app/lib/forms/form-status.tsx";
import { HoneypotField } from "#app/lib/forms/honeypot-field.tsx";
import { useFormSubmission } from "#app/lib/forms/use-form-submission.ts";
import { useHydrated } from "#app/lib/forms/use-hydrated.ts";
import type { ParseResult } from "./stored-form-schema.ts";

export interface StoredFormField<Field extends string> {
  name: Field;
  id: string;
  label: string;
  required?: boolean;
  type?: "email";
  autoComplete?: string;
  /** a textarea of this many rows instead of a one-line input */
  rows?: number;
  maxLength: number;
  placeholder?: string;
  /** a line under the field, tied to it by aria-describedby */
  hint?: { id: string; text: string };
}

/** How one stored form looks: where it posts, its fields (a pair shares a row) and its button. */
export interface StoredFormLayout<Field extends string> {
  action: string;
  /** the id of a "fields marked * are required" line, when the form has one */
  requiredNoteId?: string;
  rows: ReadonlyArray<StoredFormField<Field> | readonly [StoredFormField<Field>, StoredFormField<Field>]>;
  submit: { idle: string; busy: string; /** also say aria-disabled while sending */ ariaDisabled?: boolean };
}

/**
 * A stored form (contact, platform request): posts without JavaScript and shows the action's
 * result inline; once hydrated it validates with the shared schema and answers with toasts.
 * `actionResult` is the plain-POST result.
 */
export function StoredForm<Field extends string>({
  layout,
  validate,
  actionResult,
}: {
  layout: StoredFormLayout<Field>;
  validate: (input: Record<string, unknown>) => ParseResult<unknown, Field>;
  actionResult?: FormResult<Field>;
}) {
  const hydrated = useHydrated();
  const { formRef, onSubmit, submitting, isInvalid } = useFormSubmission<Field>({ validate, initial: actionResult });
  // After a failed plain POST the fields come back filled, so nothing typed is lost.
  const values: Partial<Record<Field, string>> = actionResult && !actionResult.ok ? (actionResult.values ?? {}) : {};
  const field = (f: StoredFormField<Field>) => {
    // attributes in the order the page has always rendered them
    const rest = {
      autoComplete: f.autoComplete,
      required: f.required || undefined,
      maxLength: f.maxLength,
      defaultValue: values[f.name],
      placeholder: f.placeholder,
      "aria-describedby": f.hint?.id,
      "aria-invalid": isInvalid(f.name) || undefined,
    };
    return (
      <div key={f.name} className="space-y-2">
        <Label htmlFor={f.id}>
          {f.required ? (
            <>
              {`${f.label} `}
              <span aria-hidden className="text-destructive">
                *
              </span>
            </>
          ) : (
            f.label
          )}
        </Label>
        {f.rows ? <Textarea id={f.id} name={f.name} rows={f.rows} {...rest} /> : <Input id={f.id} name={f.name} type={f.type} {...rest} />}
        {f.hint ? (
          <p id={f.hint.id} className="text-xs text-slate-600">
            {f.hint.text}
          </p>
        ) : null}
      </div>
    );
  };
  return (
    <form
      ref={formRef}
      method="post"
      action={layout.action}
      onSubmit={hydrated ? onSubmit : undefined}
      // The browser's own bubbles stand in until JavaScript runs; then the form's messages take over.
      noValidate={hydrated}
      aria-describedby={layout.requiredNoteId}
      className="relative space-y-5"
    >
      {hydrated ? null : <FormStatus result={actionResult} />}
      {layout.requiredNoteId ? (
        <p id={layout.requiredNoteId} className="text-sm text-slate-600">
          Fields marked <span aria-hidden>*</span>
          <span className="sr-only">with an asterisk</span> are required.
        </p>
      ) : null}
      {layout.rows.map((row) =>
        "name" in row ? (
          field(row)
        ) : (
          <div key={row[0].name} className="grid gap-5 sm:grid-cols-2">
            {field(row[0])}
            {field(row[1])}
          </div>
        ),
      )}
      <HoneypotField />
      <Button type="submit" size="lg" disabled={submitting} aria-disabled={layout.submit.ariaDisabled ? submitting : undefined}>
        <Send aria-hidden />
        {submitting ? layout.submit.busy : layout.submit.idle}
      </Button>
    </form>
  );
}
