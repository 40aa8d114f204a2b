import { AlertDialog } from "radix-ui";
import { useState } from "react";
import { Link, useFetcher } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { ACCOUNT_LIMITS, parseProfileForm, type ProfileField } from "#app/modules/account/account-schema.ts";
import type { FormResult } from "#app/lib/forms/form-problem.ts";
import { FormStatus } from "#app/lib/forms/form-status.tsx";
import { useFormSubmission } from "#app/lib/forms/use-form-submission.ts";
import { useHydrated } from "#app/lib/forms/use-hydrated.ts";
import { tabHref, type PlanSummary } from "./dashboard-data.ts";
import { PostButton } from "./post-button.tsx";

/**
 * The Settings tab: name and email (saved through better-auth; a new email is confirmed by
 * mail), and for premium users the Subscription card. Both work without JavaScript: the profile
 * form is a plain POST, and "Cancel" then opens a confirmation inside the page instead of a dialog.
 */
export function SettingsPanel(props: {
  user: { name: string; email: string };
  plan: PlanSummary | null;
  /** the last form's answer: the profile form's, or the delete form's (no JavaScript) */
  actionResult?: FormResult<ProfileField> | FormResult<"password">;
  /** no JavaScript: the "Cancel" link asked for the in-page confirmation */
  confirmCancel: boolean;
}) {
  return (
    <div className="grid gap-6">
      <ProfileForm user={props.user} actionResult={isDeleteResult(props.actionResult) ? undefined : (props.actionResult as FormResult<ProfileField> | undefined)} />
      {props.plan ? <SubscriptionCard plan={props.plan} confirmCancel={props.confirmCancel} /> : null}
      <YourData hasPlan={props.plan !== null} actionResult={isDeleteResult(props.actionResult) ? props.actionResult : undefined} />
    </div>
  );
}

/** The delete form's answer (it flags the password, or says the account was not deleted). */
function isDeleteResult(result: FormResult<string> | undefined): boolean {
  return Boolean(result && !result.ok && (result.fields.includes("password") || /not deleted/.test(result.message)));
}

/**
 * "Your data": a copy of everything kept about the account (JSON), and deleting the account, which
 * the terms promise. Deletion asks for the password; a plain form, so it works without JavaScript.
 */
function YourData({ hasPlan, actionResult }: { hasPlan: boolean; actionResult?: FormResult<string> }) {
  const fetcher = useFetcher<FormResult<"password">>();
  const result = fetcher.data ?? actionResult;
  const busy = fetcher.state !== "idle";
  return (
    <section aria-labelledby="your-data-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="your-data-heading" className="text-lg font-semibold text-slate-900">
        Your data
      </h2>
      <p className="mt-2 text-sm text-slate-700">
        A copy of everything we keep about your account: profile, plan, download history, scheduled downloads, sessions, and the comments and
        messages sent with your email.
      </p>
      <a href="/dashboard/export" download className="mt-3 inline-block text-sm font-medium text-brand-700 underline underline-offset-2">
        Download my data (JSON)
      </a>
      <h3 className="mt-6 font-semibold text-slate-900">Delete account</h3>
      <p className="mt-1 text-sm text-slate-700">
        Deletes your account, its sessions on every device, your download history and your scheduled downloads with their files, and removes
        your name and email from your comments.
        {hasPlan ? " Your subscription is canceled at once." : ""} This cannot be undone.
      </p>
      <fetcher.Form method="post" action="/dashboard?tab=settings" className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
        <input type="hidden" name="intent" value="delete-account" />
        <div className="space-y-1.5">
          <Label htmlFor="delete-password">Your password</Label>
          <Input
            id="delete-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            aria-invalid={result && !result.ok && result.fields.includes("password") ? true : undefined}
            aria-describedby={result && !result.ok ? "delete-account-error" : undefined}
          />
        </div>
        <Button type="submit" variant="destructive" disabled={busy}>
          {busy ? "Deleting..." : "Delete my account"}
        </Button>
      </fetcher.Form>
      {result && !result.ok ? (
        <p id="delete-account-error" role="alert" className="mt-2 text-sm font-medium text-destructive">
          {result.message}
        </p>
      ) : null}
    </section>
  );
}

const PROFILE_FIELDS: Array<{ name: ProfileField; label: string; type: "text" | "email"; hint?: string }> = [
  { name: "name", label: "Name", type: "text" },
  { name: "email", label: "Email", type: "email", hint: "A new email is used once you open the confirmation link we send to it." },
];

function ProfileForm({ user, actionResult }: { user: { name: string; email: string }; actionResult?: FormResult<ProfileField> }) {
  const hydrated = useHydrated();
  const { formRef, onSubmit, submitting, isInvalid } = useFormSubmission<ProfileField>({ validate: parseProfileForm, initial: actionResult });
  const values = actionResult && !actionResult.ok ? (actionResult.values ?? {}) : {};
  return (
    <section aria-labelledby="profile-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="profile-heading" className="text-lg font-semibold text-slate-900">
        Profile
      </h2>
      <form ref={formRef} method="post" action="/dashboard?tab=settings" onSubmit={hydrated ? onSubmit : undefined} noValidate={hydrated} className="mt-4 space-y-4">
        {hydrated ? null : <FormStatus result={actionResult} />}
        <input type="hidden" name="intent" value="profile" />
        {PROFILE_FIELDS.map((field) => (
          <div key={field.name} className="space-y-1.5">
            <Label htmlFor={`profile-${field.name}`}>{field.label}</Label>
            <Input
              id={`profile-${field.name}`}
              name={field.name}
              type={field.type}
              autoComplete={field.name}
              required
              maxLength={ACCOUNT_LIMITS[field.name]}
              defaultValue={values[field.name] ?? user[field.name]}
              aria-invalid={isInvalid(field.name) || undefined}
              aria-describedby={field.hint ? `profile-${field.name}-hint` : undefined}
              disabled={submitting}
            />
            {field.hint ? (
              <p id={`profile-${field.name}-hint`} className="text-xs text-slate-600">
                {field.hint}
              </p>
            ) : null}
          </div>
        ))}
        <Button type="submit" disabled={submitting}>
          {submitting ? "Saving..." : "Save Changes"}
        </Button>
      </form>
    </section>
  );
}

function SubscriptionCard({ plan, confirmCancel }: { plan: PlanSummary; confirmCancel: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="subscription-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="subscription-heading" className="text-lg font-semibold text-slate-900">
        Subscription
      </h2>
      <p className="mt-2 text-sm text-slate-600">
        {plan.name} plan.{" "}
        {plan.endsAtPeriodEnd ? "It is cancelled and ends at the end of the current billing period." : "Payment details and invoices are managed securely by Stripe."}
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <PostButton action="/billing/portal" variant="outline">
          Update Payment
        </PostButton>
        {plan.endsAtPeriodEnd ? null : (
          <AlertDialog.Root open={open} onOpenChange={setOpen}>
            <Button asChild variant="destructive">
              {/* a link without JavaScript (the server renders the confirmation), a dialog with it */}
              <Link
                to={`${tabHref("settings")}&confirm=cancel`}
                preventScrollReset
                onClick={(e) => {
                  e.preventDefault();
                  setOpen(true);
                }}
              >
                Cancel
              </Link>
            </Button>
            <AlertDialog.Portal>
              <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
              <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-lg">
                <AlertDialog.Title className="text-lg font-semibold text-slate-900">Cancel your subscription?</AlertDialog.Title>
                <AlertDialog.Description className="mt-2 text-sm text-slate-600">
                  <CancelExplanation plan={plan} />
                </AlertDialog.Description>
                <div className="mt-6 flex flex-wrap justify-end gap-3">
                  <AlertDialog.Cancel asChild>
                    <Button variant="outline">Keep Subscription</Button>
                  </AlertDialog.Cancel>
                  <PostButton action="/billing/cancel" variant="destructive">
                    Cancel Subscription
                  </PostButton>
                </div>
              </AlertDialog.Content>
            </AlertDialog.Portal>
          </AlertDialog.Root>
        )}
      </div>
      {confirmCancel && !plan.endsAtPeriodEnd ? (
        <div role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          <p className="font-semibold">Cancel your subscription?</p>
          <p className="mt-1">
            <CancelExplanation plan={plan} />
          </p>
          <div className="mt-3 flex flex-wrap gap-3">
            <PostButton action="/billing/cancel" variant="destructive">
              Cancel Subscription
            </PostButton>
            <Button asChild variant="outline">
              <Link to={tabHref("settings")}>Keep Subscription</Link>
            </Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}

function CancelExplanation({ plan }: { plan: PlanSummary }) {
  return <>Your {plan.name} features stay until the end of the current billing period; you will not be charged again.</>;
}
