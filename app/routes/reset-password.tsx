import { data, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/reset-password";
import { seo } from "#app/lib/seo.ts";
import { accountFailure } from "#app/modules/account/account-action.server.ts";
import { AccountForm } from "#app/modules/account/account-form.tsx";
import { ACCOUNT_MESSAGES } from "#app/modules/account/account-messages.ts";
import { PASSWORD_LIMITS, parseResetPasswordForm, type ResetPasswordField } from "#app/modules/account/account-schema.ts";
import { resetPassword } from "#app/modules/account/password-reset.server.ts";
import { formFields, type FormResult } from "#app/lib/forms/form-problem.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Reset Password", description: "Choose a new password for your account.", path: "/reset-password", noindex: true });

/** The token is a secret: the page is neither cached nor sent on as a referrer. */
export const headers: Route.HeadersFunction = () => ({ "cache-control": "private, no-store", "referrer-policy": "no-referrer" });

export async function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get("token") ?? "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const fields = formFields(await request.formData());
  const parsed = parseResetPasswordForm(fields);
  if (!parsed.ok) {
    return data<FormResult<ResetPasswordField>>({ ok: false, title: "Error", message: parsed.problem.message, fields: parsed.problem.fields }, { status: 400 });
  }
  const result = await resetPassword(context, parsed.data);
  if (!result.ok) {
    if (result.code === "account.unavailable" || result.code === "account.weak_password") return accountFailure<ResetPasswordField>(result.code, {});
    return data<FormResult<ResetPasswordField>>({ ok: false, title: "Error", message: ACCOUNT_MESSAGES.resetLinkInvalid, fields: [] }, { status: 400 });
  }
  return redirect("/login?notice=password-reset");
}

export default function ResetPassword() {
  const { token } = useLoaderData<typeof loader>();
  const actionResult = useActionData<typeof action>();
  return (
    <AccountForm<ResetPasswordField>
      action="/reset-password"
      heading="Reset Password"
      intro="Choose a new password. You will be logged out everywhere else."
      fields={[
        {
          name: "password",
          label: "New password",
          type: "password",
          autoComplete: "new-password",
          minLength: PASSWORD_LIMITS.min,
          maxLength: PASSWORD_LIMITS.max,
          hint: `At least ${PASSWORD_LIMITS.min} characters, not a common password.`,
        },
      ]}
      hidden={{ token }}
      submitLabel="Set New Password"
      busyLabel="Saving..."
      validate={(f) => parseResetPasswordForm({ ...f, token: f.token || token })}
      actionResult={actionResult}
      footer={
        <>
          Link expired?{" "}
          <Link to="/forgot-password" className="font-medium text-brand-700 underline underline-offset-2">
            Ask for a new one
          </Link>
        </>
      }
    />
  );
}
