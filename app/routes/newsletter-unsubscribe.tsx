import { useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/newsletter-unsubscribe";
import { seo } from "#app/lib/seo.ts";
import { NewsletterLinkPage } from "#app/modules/newsletter/newsletter-link-page.tsx";
import { newsletterLinkAction, newsletterLinkLoader } from "#app/modules/newsletter/newsletter-link-route.server.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Unsubscribe from the Newsletter", description: "Stop the newsletter to your address.", path: "/newsletter/unsubscribe", noindex: true });

/**
 * The token is a secret: the page is not cached, and a Referer sent from it is the origin alone.
 * Not `no-referrer`: the button's POST would then carry `Origin: null` and be refused as cross-site.
 */
export const headers: Route.HeadersFunction = () => ({ "cache-control": "private, no-store", "referrer-policy": "strict-origin" });

export async function loader({ request, context }: Route.LoaderArgs) {
  return newsletterLinkLoader("unsubscribe", request, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  return newsletterLinkAction("unsubscribe", request, context);
}

export default function NewsletterUnsubscribe() {
  const loaded = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  return <NewsletterLinkPage purpose="unsubscribe" page={done ?? loaded} />;
}
