import { useEffect, useRef, useState, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import type { FormProblem, FormResult } from "./form-problem.ts";
import { formFields } from "./form-problem.ts";

/**
 * The shared behaviour of the site's forms once JavaScript runs: validate with the same schema
 * as the server, show problems as a toast titled "Error" and mark the fields, post through a
 * fetcher (no page reload), toast the result, clear the form on success. The form's own error
 * toasts go when it later succeeds, and a new problem replaces the last one instead of stacking
 * up beside it. Without JavaScript
 * the form is a plain POST and the page shows the action's result inline.
 */
export function useFormSubmission<F extends string>(opts: {
  validate: (fields: Record<string, string>) => { ok: true } | { ok: false; problem: FormProblem<F> };
  /** the action's result when the page was rendered after a plain POST */
  initial?: FormResult<F>;
}) {
  const fetcher = useFetcher<FormResult<F>>();
  const formRef = useRef<HTMLFormElement>(null);
  const [invalid, setInvalid] = useState<F[]>(opts.initial && !opts.initial.ok ? opts.initial.fields : []);
  const result = fetcher.data;
  // the error toasts this form has raised and that may still be showing
  const errorToasts = useRef<Array<string | number>>([]);
  const dismissErrors = () => {
    for (const id of errorToasts.current.splice(0)) toast.dismiss(id);
  };
  const showError = (title: string, description: string) => {
    dismissErrors();
    errorToasts.current.push(toast.error(title, { description }));
  };

  useEffect(() => {
    if (!result) return;
    if (result.ok) {
      dismissErrors();
      toast.success(result.title, { description: result.message });
      formRef.current?.reset();
      setInvalid([]);
    } else {
      showError(result.title, result.message);
      setInvalid(result.fields);
    }
  }, [result]);

  function focusFirst(fields: F[]) {
    const form = formRef.current;
    const first = fields.map((f) => form?.elements.namedItem(f)).find((el): el is HTMLInputElement => el instanceof HTMLElement);
    first?.focus();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const checked = opts.validate(formFields(new FormData(form)));
    if (!checked.ok) {
      showError("Error", checked.problem.message);
      setInvalid(checked.problem.fields);
      focusFirst(checked.problem.fields);
      return;
    }
    setInvalid([]);
    fetcher.submit(form, { method: "post" });
  }

  return {
    formRef,
    onSubmit,
    submitting: fetcher.state !== "idle",
    /** props for one field: aria-invalid while the last check flagged it */
    isInvalid: (field: F) => invalid.includes(field),
  };
}
