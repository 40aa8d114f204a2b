import { redirect } from "react-router";
import type { Route } from "./+types/newsletter";
import type { NewsletterOutcome } from "#app/modules/newsletter/newsletter-messages.ts";
import { NEWSLETTER_MESSAGES, newsletterSchema, type NewsletterResponse } from "#app/modules/newsletter/newsletter-schema.ts";
import { readNewsletterBody } from "#app/modules/newsletter/read-newsletter-body.server.ts";
import { subscribeToNewsletter } from "#app/modules/newsletter/subscribe-to-newsletter.server.ts";
import { sendConfirmationAfterAnswer } from "#app/modules/newsletter/send-confirmation.server.ts";

/** POST /newsletter: the blog's "Stay Updated" box (form or JSON `{email, website}`). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return reply({ ok: false, message: "Use POST to subscribe." }, { status: 405, headers: { Allow: "POST" } });
  }
  const html = wantsHtml(request);
  const body = await readNewsletterBody(request);
  const parsed = body ? newsletterSchema.safeParse(body) : undefined;
  if (!parsed?.success) {
    return html ? backTo(request, "invalidEmail") : reply({ ok: false, message: NEWSLETTER_MESSAGES.invalidEmail }, { status: 400 });
  }
  const result = await subscribeToNewsletter(context, parsed.data);
  if (result.ok && result.confirm) sendConfirmationAfterAnswer(context, result.confirm);
  if (!result.ok) return html ? backTo(request, "failed") : reply({ ok: false, message: NEWSLETTER_MESSAGES.failed }, { status: 500 });
  return html ? backTo(request, "subscribed") : reply({ ok: true, message: NEWSLETTER_MESSAGES.subscribed });
}

/** A plain form post from a browser without JavaScript (it asks for HTML, not JSON). */
function wantsHtml(request: Request): boolean {
  const accept = request.headers.get("accept") ?? "";
  return accept.includes("text/html") && !accept.includes("application/json");
}

/**
 * The pages that show the subscribe box. Only these are ever redirected to: a Referer whose path
 * is `//evil.example/x` or `/\evil.example` would otherwise become an off-site Location.
 */
const RETURN_PATHS = /^\/blog(?:\/[a-z0-9][a-z0-9-]{0,199})?$/;

/** Back to the page the form was on (same origin, allow-listed path), which shows the outcome in its box. */
function backTo(request: Request, outcome: NewsletterOutcome): Response {
  const own = new URL(request.url);
  const target = new URL("/blog", own);
  const referer = request.headers.get("referer");
  if (referer) {
    try {
      const from = new URL(referer);
      if (from.origin === own.origin && RETURN_PATHS.test(from.pathname)) {
        target.pathname = from.pathname;
        target.search = from.search;
      }
    } catch {
      // an unparsable Referer: fall back to the blog
    }
  }
  target.searchParams.set("newsletter", outcome);
  target.hash = "stay-updated";
  return redirect(target.pathname + target.search + target.hash, 303);
}

/** Subscribing changes state, so a GET only explains how to use the endpoint. */
export function loader() {
  return reply({ ok: false, message: "Use POST to subscribe." }, { status: 405, headers: { Allow: "POST" } });
}

function reply(body: NewsletterResponse, init?: { status: number; headers?: Record<string, string> }): Response {
  return Response.json(body, { ...init, headers: { "Cache-Control": "no-store", ...init?.headers } });
}
