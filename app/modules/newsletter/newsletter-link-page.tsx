import { Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { NEWSLETTER_CONFIRM_DAYS } from "./newsletter-rules.ts";

/** Mirrors newsletter-subscription.server.ts's LinkLookup (this file is sent to the browser). */
export interface LinkPageState {
  state: "invalid" | "expired" | "gone" | "unconfirmed" | "confirmed";
  email?: string;
  /** the button was pressed (the POST answered), not just the link opened */
  done?: boolean;
}

interface Shown {
  heading: string;
  text: string;
  button?: string;
}

const INVALID: Shown = {
  heading: "This link is not valid",
  text: "Please open the link exactly as it is in our email. To subscribe again, use the box on the blog.",
};

function confirmPage({ state, email, done }: LinkPageState): Shown {
  switch (state) {
    case "expired":
      return { heading: "This link has expired", text: `Confirmation links work for ${NEWSLETTER_CONFIRM_DAYS} days. Subscribe again on the blog to get a new one.` };
    case "gone":
      return { heading: "This address is not on our list", text: "It was unsubscribed, or not confirmed in time. Subscribe again on the blog if you want the newsletter." };
    case "unconfirmed":
      return { heading: "Confirm your subscription", text: `Press the button to receive the newsletter at ${email}.`, button: "Confirm subscription" };
    case "confirmed":
      return {
        heading: done ? "Subscription confirmed" : "You are subscribed",
        text: `${email} receives the newsletter. Every email has a link to unsubscribe.`,
      };
    default:
      return INVALID;
  }
}

function unsubscribePage({ state, email, done }: LinkPageState): Shown {
  switch (state) {
    case "gone":
      return done
        ? { heading: "You are unsubscribed", text: `${email ?? "The address"} was removed from our list and gets no more newsletter emails.` }
        : { heading: "This address is not on our list", text: "It was unsubscribed already, or never confirmed. We send it no newsletter." };
    case "unconfirmed":
    case "confirmed":
      return { heading: "Unsubscribe from the newsletter", text: `Press the button to stop the newsletter to ${email} and remove the address from our list.`, button: "Unsubscribe" };
    default:
      return INVALID;
  }
}

/**
 * The page a newsletter mail's link opens. Opening it changes nothing (mail scanners open links
 * too); the button posts to the same URL, token included, and the action does the change.
 */
export function NewsletterLinkPage({ purpose, page }: { purpose: "confirm" | "unsubscribe"; page: LinkPageState }) {
  const shown = purpose === "confirm" ? confirmPage(page) : unsubscribePage(page);
  return (
    <section className="mx-auto w-full max-w-lg px-4 py-16 sm:px-6">
      <div className="rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">{shown.heading}</h1>
        <p role="status" className="mt-3 text-slate-700" data-testid="newsletter-link-state" data-state={page.state}>
          {shown.text}
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {shown.button ? (
            // no action: the form posts to this page's own URL, which carries the signed token
            <form method="post">
              <Button type="submit">{shown.button}</Button>
            </form>
          ) : null}
          <Button asChild variant="outline">
            <Link to="/blog">Go to the blog</Link>
          </Button>
        </div>
      </div>
    </section>
  );
}
