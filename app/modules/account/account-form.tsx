import { useEffect, type ReactNode } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import type { FormProblem, FormResult } from "#app/lib/forms/form-problem.ts";
import { FormStatus } from "#app/lib/forms/form-status.tsx";
import { useFormSubmission } from "#app/lib/forms/use-form-submission.ts";
import { useHydrated } from "#app/lib/forms/use-hydrated.ts";
import { LOGIN_NOTICES, type LoginNotice } from "./account-messages.ts";

export interface AccountField<F extends string> {
  name: F;
  label: string;
  type: "text" | "email" | "password";
  autoComplete: string;
  maxLength: number;
  minLength?: number;
  hint?: string;
}

/**
 * The login and signup card. Without JavaScript it is a plain POST and the page shows the
 * action's answer inline; with JavaScript the same action runs through a fetcher, the answer
 * is a toast, and the inputs are disabled under the busy label while it runs.
 */
export function AccountForm<F extends string>(props: {
  action: "/login" | "/signup" | "/forgot-password" | "/reset-password";
  heading: string;
  intro: string;
  fields: Array<AccountField<F>>;
  submitLabel: string;
  busyLabel: string;
  validate: (fields: Record<string, string>) => { ok: true } | { ok: false; problem: FormProblem<F> };
  actionResult?: FormResult<F>;
  returnTo?: string;
  /** extra hidden fields (the reset token) */
  hidden?: Record<string, string>;
  notice?: LoginNotice | null;
  /** below the fields, e.g. "Forgot your password?" */
  aside?: ReactNode;
  footer: ReactNode;
}) {
  const hydrated = useHydrated();
  const { formRef, onSubmit, submitting, isInvalid } = useFormSubmission<F>({ validate: props.validate, initial: props.actionResult });
  const values: Partial<Record<F, string>> = props.actionResult && !props.actionResult.ok ? (props.actionResult.values ?? {}) : {};
  const notice = props.notice ? LOGIN_NOTICES[props.notice] : null;

  // With JavaScript a redirect's notice ("Authentication Required", "Logged Out") is a toast.
  useEffect(() => {
    if (!hydrated || !notice) return;
    const id = `notice-${props.notice}`;
    if (notice.tone === "error") toast.error(notice.title, { id, description: notice.description });
    else toast.success(notice.title, { id, description: notice.description });
  }, [hydrated, notice, props.notice]);

  return (
    <section className="mx-auto w-full max-w-md px-4 py-16 sm:px-6">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">{props.heading}</h1>
        <p className="mt-2 text-sm text-slate-600">{props.intro}</p>
        <form
          ref={formRef}
          method="post"
          action={props.action}
          onSubmit={hydrated ? onSubmit : undefined}
          noValidate={hydrated}
          className="mt-6 space-y-5"
        >
          {hydrated ? null : (
            <>
              {notice ? <FormStatus result={{ ok: notice.tone !== "error", title: notice.title, message: notice.description, fields: [] }} /> : null}
              <FormStatus result={props.actionResult} />
            </>
          )}
          {props.returnTo ? <input type="hidden" name="returnTo" value={props.returnTo} /> : null}
          {Object.entries(props.hidden ?? {}).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <fieldset disabled={submitting} className="space-y-5">
            {props.fields.map((f) => (
              <div key={f.name} className="space-y-2">
                <Label htmlFor={`account-${f.name}`}>{f.label}</Label>
                <Input
                  id={`account-${f.name}`}
                  name={f.name}
                  type={f.type}
                  autoComplete={f.autoComplete}
                  required
                  maxLength={f.maxLength}
                  minLength={f.minLength}
                  defaultValue={f.type === "password" ? undefined : values[f.name]}
                  aria-invalid={isInvalid(f.name) || undefined}
                  aria-describedby={f.hint ? `account-${f.name}-hint` : undefined}
                />
                {f.hint ? (
                  <p id={`account-${f.name}-hint`} className="text-xs text-slate-600">
                    {f.hint}
                  </p>
                ) : null}
              </div>
            ))}
          </fieldset>
          {props.aside}
          <Button type="submit" size="lg" className="w-full" disabled={submitting} aria-disabled={submitting}>
            {submitting ? props.busyLabel : props.submitLabel}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm text-slate-600">{props.footer}</p>
      </div>
    </section>
  );
}

/** A link to the other form that keeps where the visitor is headed. */
export function AccountSwitchLink({ to, returnTo, children }: { to: "/login" | "/signup"; returnTo: string; children: ReactNode }) {
  const search = returnTo === "/dashboard" ? "" : `?${new URLSearchParams({ returnTo }).toString()}`;
  return (
    <Link to={`${to}${search}`} className="font-medium text-brand-700 underline underline-offset-2">
      {children}
    </Link>
  );
}
