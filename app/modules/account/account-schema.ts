import { z } from "#app/lib/zod.ts";
import { summariseIssues, type FormProblem } from "#app/lib/forms/form-problem.ts";
import { ACCOUNT_MESSAGES } from "./account-messages.ts";

/**
 * The login and signup forms (spec §2 "Login and signup", §5): one schema for the browser and
 * the server. Every field is required ("Please fill in all fields"); the only extra rules are
 * an email that looks like one and a password of 8 to 128 characters on signup.
 */
export const PASSWORD_LIMITS = { min: 8, max: 128 } as const;
export const ACCOUNT_LIMITS = { name: 100, email: 254 } as const;

const required = (max: number, tooLong: string) => z.string({ error: ACCOUNT_MESSAGES.required }).trim().min(1, ACCOUNT_MESSAGES.required).max(max, tooLong);
const email = required(ACCOUNT_LIMITS.email, ACCOUNT_MESSAGES.invalidEmail).pipe(z.email(ACCOUNT_MESSAGES.invalidEmail));
// Passwords are never trimmed: spaces may be part of one.
const password = z.string({ error: ACCOUNT_MESSAGES.required }).min(1, ACCOUNT_MESSAGES.required);

export const loginSchema = z.object({
  email,
  // a login checks the password the account has, whatever its length
  password: password.max(PASSWORD_LIMITS.max, ACCOUNT_MESSAGES.invalidCredentials),
});

export const signupSchema = z.object({
  name: required(ACCOUNT_LIMITS.name, ACCOUNT_MESSAGES.nameTooLong),
  email,
  password: password.min(PASSWORD_LIMITS.min, ACCOUNT_MESSAGES.passwordTooShort).max(PASSWORD_LIMITS.max, ACCOUNT_MESSAGES.passwordTooLong),
});

export type LoginInput = z.output<typeof loginSchema>;
export type SignupInput = z.output<typeof signupSchema>;
export type LoginField = keyof LoginInput;
export type SignupField = keyof SignupInput;

type Parsed<T, F extends string> = { ok: true; data: T } | { ok: false; problem: FormProblem<F> };

export function parseLoginForm(input: Record<string, unknown>): Parsed<LoginInput, LoginField> {
  const result = loginSchema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, problem: summariseIssues<LoginField>(result.error, ACCOUNT_MESSAGES.required) };
}

export function parseSignupForm(input: Record<string, unknown>): Parsed<SignupInput, SignupField> {
  const result = signupSchema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, problem: summariseIssues<SignupField>(result.error, ACCOUNT_MESSAGES.required) };
}

export const forgotPasswordSchema = z.object({ email });
export const resetPasswordSchema = z.object({
  token: z.string({ error: ACCOUNT_MESSAGES.resetLinkInvalid }).min(1, ACCOUNT_MESSAGES.resetLinkInvalid).max(256, ACCOUNT_MESSAGES.resetLinkInvalid),
  password: password.min(PASSWORD_LIMITS.min, ACCOUNT_MESSAGES.passwordTooShort).max(PASSWORD_LIMITS.max, ACCOUNT_MESSAGES.passwordTooLong),
});
export type ForgotPasswordField = "email";
export type ResetPasswordField = "password";

export function parseForgotPasswordForm(input: Record<string, unknown>): Parsed<z.output<typeof forgotPasswordSchema>, ForgotPasswordField> {
  const result = forgotPasswordSchema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, problem: summariseIssues<ForgotPasswordField>(result.error, ACCOUNT_MESSAGES.required) };
}

export function parseResetPasswordForm(input: Record<string, unknown>): Parsed<z.output<typeof resetPasswordSchema>, ResetPasswordField> {
  const result = resetPasswordSchema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, problem: summariseIssues<ResetPasswordField>(result.error, ACCOUNT_MESSAGES.required) };
}

/** The dashboard's Settings form: name and email (an email change is confirmed by mail). */
export const profileSchema = z.object({
  name: required(ACCOUNT_LIMITS.name, ACCOUNT_MESSAGES.nameTooLong),
  email,
});
export type ProfileField = keyof z.output<typeof profileSchema>;

export function parseProfileForm(input: Record<string, unknown>): Parsed<z.output<typeof profileSchema>, ProfileField> {
  const result = profileSchema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, problem: summariseIssues<ProfileField>(result.error, ACCOUNT_MESSAGES.required) };
}
