import type { Route } from "./+types/newsletter";
import { NEWSLETTER_MESSAGES, newsletterSchema, type NewsletterResponse } from "#app/modules/newsletter/newsletter-schema.ts";
import { readNewsletterBody } from "#app/modules/newsletter/read-newsletter-body.server.ts";
import { subscribeToNewsletter } from "#app/modules/newsletter/subscribe-to-newsletter.server.ts";

/** POST /newsletter: the blog's "Stay Updated" box (form or JSON `{email, website}`). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return reply({ ok: false, message: "Use POST to subscribe." }, { status: 405, headers: { Allow: "POST" } });
  }
  const body = await readNewsletterBody(request);
  const parsed = body ? newsletterSchema.safeParse(body) : undefined;
  if (!parsed?.success) {
    return reply({ ok: false, message: NEWSLETTER_MESSAGES.invalidEmail }, { status: 400 });
  }
  const result = await subscribeToNewsletter(context, parsed.data);
  if (!result.ok) return reply({ ok: false, message: NEWSLETTER_MESSAGES.failed }, { status: 500 });
  return reply({ ok: true, message: NEWSLETTER_MESSAGES.subscribed });
}

/** Subscribing changes state, so a GET only explains how to use the endpoint. */
export function loader() {
  return reply({ ok: false, message: "Use POST to subscribe." }, { status: 405, headers: { Allow: "POST" } });
}

function reply(body: NewsletterResponse, init?: { status: number; headers?: Record<string, string> }): Response {
  return Response.json(body, { ...init, headers: { "Cache-Control": "no-store", ...init?.headers } });
}
