import { useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/newsletter-confirm";
import { seo } from "#app/lib/seo.ts";
import { NewsletterLinkPage } from "#app/modules/newsletter/newsletter-link-page.tsx";
import { newsletterLinkAction, newsletterLinkLoader } from "#app/modules/newsletter/newsletter-link-route.server.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Confirm Newsletter Subscription", description: "Confirm your newsletter subscription.", path: "/newsletter/confirm", noindex: true });

/**
 * The token is a secret: the page is not cached, and a Referer sent from it is the origin alone.
 * Not `no-referrer`: the button's POST would then carry `Origin: null` and be refused as cross-site.
 */
export const headers: Route.HeadersFunction = () => ({ "cache-control": "private, no-store", "referrer-policy": "strict-origin" });

export async function loader({ request, context }: Route.LoaderArgs) {
  return newsletterLinkLoader("confirm", request, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  return newsletterLinkAction("confirm", request, context);
}

export default function NewsletterConfirm() {
  const loaded = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  return <NewsletterLinkPage purpose="confirm" page={done ?? loaded} />;
}
