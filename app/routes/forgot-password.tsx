import { data, useActionData } from "react-router";
import type { Route } from "./+types/forgot-password";
import { seo } from "#app/lib/seo.ts";
import { accountFailure } from "#app/modules/account/account-action.server.ts";
import { AccountForm, AccountSwitchLink } from "#app/modules/account/account-form.tsx";
import { ACCOUNT_MESSAGES } from "#app/modules/account/account-messages.ts";
import { ACCOUNT_LIMITS, parseForgotPasswordForm, type ForgotPasswordField } from "#app/modules/account/account-schema.ts";
import { requestPasswordReset } from "#app/modules/account/password-reset.server.ts";
import { formFields, type FormResult } from "#app/lib/forms/form-problem.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Forgot Password", description: "Get a link to choose a new password.", path: "/forgot-password", noindex: true });

export async function action({ request, context }: Route.ActionArgs) {
  const fields = formFields(await request.formData());
  const values = { email: fields.email ?? "" };
  const parsed = parseForgotPasswordForm(fields);
  if (!parsed.ok) {
    return data<FormResult<ForgotPasswordField>>({ ok: false, title: "Error", message: parsed.problem.message, fields: parsed.problem.fields, values }, { status: 400 });
  }
  const result = await requestPasswordReset(context, parsed.data.email, { clientIp: context.clientIp });
  if (!result.ok) return accountFailure<ForgotPasswordField>(result.code, values, result.retryAfterSeconds);
  const done = ACCOUNT_MESSAGES.resetRequested;
  return data<FormResult<ForgotPasswordField>>({ ok: true, title: done.title, message: done.description });
}

export default function ForgotPassword() {
  const actionResult = useActionData<typeof action>();
  return (
    <AccountForm<ForgotPasswordField>
      action="/forgot-password"
      heading="Forgot Password"
      intro="Enter the email of your account and we'll send you a link to choose a new password."
      fields={[{ name: "email", label: "Email", type: "email", autoComplete: "email", maxLength: ACCOUNT_LIMITS.email }]}
      submitLabel="Send Reset Link"
      busyLabel="Sending..."
      validate={parseForgotPasswordForm}
      actionResult={actionResult}
      footer={
        <>
          Remembered it?{" "}
          <AccountSwitchLink to="/login" returnTo="/dashboard">
            Log in
          </AccountSwitchLink>
        </>
      }
    />
  );
}
