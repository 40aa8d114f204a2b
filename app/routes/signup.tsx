import { data, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/signup";
import { seo } from "#app/lib/seo.ts";
import { accountFailure } from "#app/modules/account/account-action.server.ts";
import { AccountForm, AccountSwitchLink } from "#app/modules/account/account-form.tsx";
import { ACCOUNT_MESSAGES } from "#app/modules/account/account-messages.ts";
import { ACCOUNT_LIMITS, PASSWORD_LIMITS, parseSignupForm, type SignupField } from "#app/modules/account/account-schema.ts";
import { authCallHeaders } from "#app/modules/account/account-services.server.ts";
import { safeReturnTo } from "#app/modules/account/return-to.ts";
import { getSessionUser } from "#app/modules/account/session-user.server.ts";
import { signUp } from "#app/modules/account/sign-up.server.ts";
import { formFields, type FormResult } from "#app/lib/forms/form-problem.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Sign Up", description: "Create a free account to keep your downloads and upgrade to premium.", path: "/signup", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  const returnTo = safeReturnTo(new URL(request.url).searchParams.get("returnTo"));
  if (await getSessionUser(context.accounts, request)) throw redirect(returnTo);
  return { returnTo };
}

export async function action({ request, context }: Route.ActionArgs) {
  const fields = formFields(await request.formData());
  const returnTo = safeReturnTo(fields.returnTo);
  const values = { name: fields.name ?? "", email: fields.email ?? "" };
  const parsed = parseSignupForm(fields);
  if (!parsed.ok) {
    return data<FormResult<SignupField>>({ ok: false, title: "Error", message: parsed.problem.message, fields: parsed.problem.fields, values }, { status: 400 });
  }
  const result = await signUp(context, parsed.data, { clientIp: context.clientIp, headers: authCallHeaders(request, context.clientIp), returnTo });
  if (!result.ok) return accountFailure<SignupField>(result.code, values, result.retryAfterSeconds);
  // the same answer for a new address and a taken one: the mail says which (issue 27 §16)
  const done = ACCOUNT_MESSAGES.signupRequested;
  return data<FormResult<SignupField>>({ ok: true, title: done.title, message: done.description.replace("{email}", parsed.data.email) });
}

export default function Signup() {
  const { returnTo } = useLoaderData<typeof loader>();
  const actionResult = useActionData<typeof action>();
  return (
    <AccountForm<SignupField>
      action="/signup"
      heading="Create an Account"
      intro="Sign up for free to keep track of your downloads and unlock premium plans."
      fields={[
        { name: "name", label: "Name", type: "text", autoComplete: "name", maxLength: ACCOUNT_LIMITS.name },
        { name: "email", label: "Email", type: "email", autoComplete: "email", maxLength: ACCOUNT_LIMITS.email },
        {
          name: "password",
          label: "Password",
          type: "password",
          autoComplete: "new-password",
          minLength: PASSWORD_LIMITS.min,
          maxLength: PASSWORD_LIMITS.max,
          hint: `At least ${PASSWORD_LIMITS.min} characters, not a common password.`,
        },
      ]}
      submitLabel="Sign Up"
      busyLabel="Creating account..."
      validate={parseSignupForm}
      actionResult={actionResult}
      returnTo={returnTo}
      footer={
        <>
          Already have an account?{" "}
          <AccountSwitchLink to="/login" returnTo={returnTo}>
            Log in
          </AccountSwitchLink>
        </>
      }
    />
  );
}
