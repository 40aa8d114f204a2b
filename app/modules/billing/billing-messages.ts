import { defineErrors, TOO_MANY_REQUESTS } from "#common/error-catalogue.ts";

/**
 * What the plans and payment pages say (spec §8 "Payment and account", "Success toasts"). The
 * spec's wording is kept verbatim where it gives one; the rest is plain English. Browser-safe.
 */
export const BILLING_ERRORS = defineErrors({
  "billing.not_configured": {
    status: 503,
    message: "Payments are not configured on this server, so plans cannot be bought here. No payment was taken.",
  },
  "billing.login_required": { status: 401, message: "Please log in or create an account to subscribe" },
  "billing.invalid_plan": { status: 400, message: "Please choose one of the plans: Basic, Pro or Ultimate." },
  "billing.already_subscribed": {
    status: 409,
    message: "You already have a premium plan. Use Manage Subscription on your dashboard to change it; changes apply at your next billing cycle.",
  },
  "billing.rate_limited": { status: 429, message: TOO_MANY_REQUESTS },
  "billing.checkout_failed": { status: 502, message: "There was an error processing your payment" },
  "billing.no_session": { status: 400, message: "No payment session found. Please try the checkout process again." },
  "billing.verify_login_required": { status: 401, message: "Please log in to activate your premium features" },
  "billing.activation_failed": {
    status: 402,
    message: "There was an issue verifying your payment. Please try again or contact support.",
  },
  "billing.no_subscription": {
    status: 404,
    message: "You don't have a subscription to manage. Choose a plan on the Premium page to get one.",
  },
  "billing.manage_failed": { status: 502, message: "We couldn't reach the payment provider. Please try again later." },
});

export type BillingErrorCode = keyof typeof BILLING_ERRORS;

export function billingError(code: BillingErrorCode) {
  return { code, ...BILLING_ERRORS[code] };
}

/** Notices a billing redirect to /dashboard can carry (`?notice=`), shown once on arrival. */
export const BILLING_NOTICES = {
  "subscription-canceled": {
    tone: "success",
    title: "Subscription Canceled",
    description: "Your plan will not renew. Your premium features stay active until the end of the billing period.",
  },
  "no-subscription": { tone: "error", title: "No Subscription", description: BILLING_ERRORS["billing.no_subscription"].message },
  "payments-unavailable": { tone: "error", title: "Payments Unavailable", description: BILLING_ERRORS["billing.not_configured"].message },
  "billing-error": { tone: "error", title: "Payment Error", description: BILLING_ERRORS["billing.manage_failed"].message },
  "billing-rate-limited": { tone: "error", title: "Too Many Requests", description: BILLING_ERRORS["billing.rate_limited"].message },
} as const;

export type BillingNotice = keyof typeof BILLING_NOTICES;

export function billingNoticeOf(value: string | null): BillingNotice | null {
  return value !== null && Object.hasOwn(BILLING_NOTICES, value) ? (value as BillingNotice) : null;
}
