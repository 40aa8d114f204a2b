import { defineErrors, TOO_MANY_REQUESTS } from "#common/error-catalogue.ts";

/**
 * What the account pages say (spec §5 "Login", §8 "Payment and account", "Success toasts").
 * Wording the spec gives is kept verbatim; the rest is plain English.
 */
export const ACCOUNT_MESSAGES = {
  required: "Please fill in all fields",
  invalidEmail: "Please enter a valid email address",
  invalidCredentials: "Invalid email or password",
  signupFailed: "Failed to create account",
  passwordTooShort: "Your password must be at least 8 characters long",
  passwordTooLong: "Your password must be at most 128 characters long",
  nameTooLong: "Please keep your name under 100 characters",
  passwordTooWeak: "This password is too common or too easy to guess. Please choose a less predictable one.",
  fieldTooLong: "One of the fields is too long. Please shorten it and try again.",
  rateLimited: TOO_MANY_REQUESTS,
  unavailable: "Our servers are experiencing an issue. Please try again later.",
  logoutFailed: "Could not log out. Please try again.",
  /** the signup answer, the same for a new address and a taken one (issue 27 §16); {email} is the address */
  signupRequested: {
    title: "Check your email",
    description: "We've sent a message to {email}. Open the link in it to finish signing up. It works for 24 hours.",
  },
  resetRequested: {
    title: "Check your email",
    description: "If an account exists for that email, we've sent a link to reset your password. It works for one hour.",
  },
  profileUpdated: { title: "Profile Updated", description: "Your changes have been saved." },
  /** {email} is the new address */
  emailChangeSent: "We sent a confirmation link to {email}. Your email changes once you open it.",
  resetLinkInvalid: "This password reset link is invalid or has expired. Please ask for a new one.",
  deleteWrongPassword: "That password is not right, so your account was not deleted.",
  deleteBillingFailed: "We could not cancel your subscription, so your account was not deleted. Please try again in a few minutes or contact us.",
} as const;

/**
 * The account use-cases' failure codes with the form answer's status and sentence. Page-only:
 * the account forms answer them, never the JSON API.
 */
export const ACCOUNT_ERRORS = defineErrors({
  "account.rate_limited": { status: 429, message: ACCOUNT_MESSAGES.rateLimited },
  "account.invalid_credentials": { status: 401, message: ACCOUNT_MESSAGES.invalidCredentials },
  "account.signup_failed": { status: 400, message: ACCOUNT_MESSAGES.signupFailed },
  "account.weak_password": { status: 400, message: ACCOUNT_MESSAGES.passwordTooWeak },
  "account.unavailable": { status: 503, message: ACCOUNT_MESSAGES.unavailable },
  "account.wrong_password": { status: 401, message: ACCOUNT_MESSAGES.deleteWrongPassword },
  "account.subscription_cancel_failed": { status: 502, message: ACCOUNT_MESSAGES.deleteBillingFailed },
  "account.reset_link_invalid": { status: 400, message: ACCOUNT_MESSAGES.resetLinkInvalid },
});

/** Notices a redirect to /login can carry (`?notice=`), shown once on arrival. */
export const LOGIN_NOTICES = {
  "auth-required": { tone: "error", title: "Authentication Required", description: "Please log in to access your dashboard." },
  "logged-out": { tone: "success", title: "Logged Out", description: "You have been logged out." },
  "password-reset": { tone: "success", title: "Password Updated", description: "Your password has been changed. Please log in with the new one." },
  "account-deleted": { tone: "success", title: "Account Deleted", description: "Your account and the data kept with it have been deleted." },
  // spec §8 "Payment and account": a logged-out subscribe, and /payment-success without a session
  "login-required": { tone: "error", title: "Login Required", description: "Please log in or create an account to subscribe" },
  "payment-auth-required": { tone: "error", title: "Authentication Required", description: "Please log in to activate your premium features" },
} as const;

export type LoginNotice = keyof typeof LOGIN_NOTICES;

export function loginNoticeOf(value: string | null): LoginNotice | null {
  return value !== null && Object.hasOwn(LOGIN_NOTICES, value) ? (value as LoginNotice) : null;
}
