import { data, Link, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/login";
import { seo } from "#app/lib/seo.ts";
import { accountFailure, redirectWithCookies } from "#app/modules/account/account-action.server.ts";
import { AccountForm, AccountSwitchLink } from "#app/modules/account/account-form.tsx";
import { loginNoticeOf } from "#app/modules/account/account-messages.ts";
import { ACCOUNT_LIMITS, PASSWORD_LIMITS, parseLoginForm, type LoginField } from "#app/modules/account/account-schema.ts";
import { authCallHeaders } from "#app/modules/account/account-services.server.ts";
import { safeReturnTo } from "#app/modules/account/return-to.ts";
import { getSessionUser } from "#app/modules/account/session-user.server.ts";
import { signIn } from "#app/modules/account/sign-in.server.ts";
import { formFields, type FormResult } from "#app/lib/forms/form-problem.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Log In", description: "Log in to your account to see your dashboard and premium features.", path: "/login", noindex: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const returnTo = safeReturnTo(url.searchParams.get("returnTo"));
  // Already signed in: straight on to where the visitor was going.
  if (await getSessionUser(context.accounts, request)) throw redirect(returnTo);
  return { returnTo, notice: loginNoticeOf(url.searchParams.get("notice")) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const fields = formFields(await request.formData());
  const returnTo = safeReturnTo(fields.returnTo);
  const values = { email: fields.email ?? "" };
  const parsed = parseLoginForm(fields);
  if (!parsed.ok) {
    return data<FormResult<LoginField>>({ ok: false, title: "Error", message: parsed.problem.message, fields: parsed.problem.fields, values }, { status: 400 });
  }
  const result = await signIn(context, parsed.data, { clientIp: context.clientIp, headers: authCallHeaders(request, context.clientIp), returnTo });
  if (!result.ok) return accountFailure<LoginField>(result.code, values, result.retryAfterSeconds);
  return redirectWithCookies(returnTo, result.setCookies);
}

export default function Login() {
  const { returnTo, notice } = useLoaderData<typeof loader>();
  const actionResult = useActionData<typeof action>();
  return (
    <AccountForm<LoginField>
      action="/login"
      heading="Welcome Back"
      intro="Log in to your account to continue."
      fields={[
        { name: "email", label: "Email", type: "email", autoComplete: "email", maxLength: ACCOUNT_LIMITS.email },
        { name: "password", label: "Password", type: "password", autoComplete: "current-password", maxLength: PASSWORD_LIMITS.max },
      ]}
      submitLabel="Log In"
      busyLabel="Logging in..."
      validate={parseLoginForm}
      actionResult={actionResult}
      returnTo={returnTo}
      notice={notice}
      aside={
        <p className="text-right text-sm">
          <Link to="/forgot-password" className="font-medium text-brand-700 underline underline-offset-2">
            Forgot your password?
          </Link>
        </p>
      }
      footer={
        <>
          Don&apos;t have an account?{" "}
          <AccountSwitchLink to="/signup" returnTo={returnTo}>
            Sign up
          </AccountSwitchLink>
        </>
      }
    />
  );
}
