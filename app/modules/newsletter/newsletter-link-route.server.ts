import type { AppLoadContext } from "react-router";
import type { LinkPageState } from "./newsletter-link-page.tsx";
import { confirmSubscription, readNewsletterLink, unsubscribe } from "./newsletter-subscription.server.ts";
import { newsletterKeyFrom } from "./newsletter-token.server.ts";

type Purpose = "confirm" | "unsubscribe";
type Context = Pick<AppLoadContext, "db" | "config" | "logger">;

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token");

/** GET: what the link finds, nothing changed. */
export async function newsletterLinkLoader(purpose: Purpose, request: Request, context: Context): Promise<LinkPageState> {
  return readNewsletterLink(context.db, newsletterKeyFrom(context.config), purpose, tokenOf(request));
}

/**
 * POST: the page's button, or for unsubscribe the one-click POST of RFC 8058 (body
 * `List-Unsubscribe=One-Click`), which the mail provider's server sends without a cookie, a form
 * token or an Origin header; the host's cross-site check lets such a request through, and the
 * signed token in the URL is the only authority.
 */
export async function newsletterLinkAction(purpose: Purpose, request: Request, context: Context): Promise<LinkPageState> {
  const key = newsletterKeyFrom(context.config);
  const token = tokenOf(request);
  const result = purpose === "confirm" ? await confirmSubscription(context.db, key, token) : await unsubscribe(context.db, key, token);
  if (result.email) context.logger.info(`newsletter: ${purpose === "confirm" ? "subscription confirmed" : "unsubscribed"}`);
  return { ...result, done: true };
}
