import { Mail } from "#app/components/icons.ts";
import { useState, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { isNewsletterOutcome, NEWSLETTER_MESSAGES } from "#app/modules/newsletter/newsletter-messages.ts";
import { HoneypotField } from "#app/lib/forms/honeypot-field.tsx";

type State = { status: "idle" } | { status: "sending" } | { status: "done"; ok: boolean; message: string };

/**
 * "Stay Updated": posts to /newsletter and shows the endpoint's own message, which asks the
 * visitor to confirm from their inbox (double opt-in: every mail carries an unsubscribe link).
 */
export function NewsletterBox() {
  // Without JavaScript the form posts and the endpoint sends the visitor back with ?newsletter=…
  const [params] = useSearchParams();
  const outcome = params.get("newsletter");
  const [state, setState] = useState<State>(
    isNewsletterOutcome(outcome) ? { status: "done", ok: outcome === "subscribed", message: NEWSLETTER_MESSAGES[outcome] } : { status: "idle" },
  );

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const body = new FormData(form);
    setState({ status: "sending" });
    try {
      const res = await fetch("/newsletter", { method: "POST", body, headers: { Accept: "application/json" } });
      const json = (await res.json().catch(() => null)) as { ok?: boolean; message?: string; error?: { message?: string } } | null;
      const message = json?.message ?? json?.error?.message ?? NEWSLETTER_MESSAGES.failed;
      const ok = res.ok && json?.ok === true;
      setState({ status: "done", ok, message });
      if (ok) form.reset();
    } catch {
      setState({ status: "done", ok: false, message: NEWSLETTER_MESSAGES.failed });
    }
  }

  return (
    <section id="stay-updated" aria-labelledby="stay-updated-heading" className="rounded-2xl bg-brand-900 px-6 py-10 text-white sm:px-10">
      <div className="mx-auto max-w-2xl text-center">
        <Mail aria-hidden className="mx-auto size-8 text-brand-200" />
        <h2 id="stay-updated-heading" className="mt-3 text-2xl font-bold">
          Stay Updated
        </h2>
        <p className="mt-2 text-brand-100">Get new guides on saving videos safely, formats and quality in your inbox. No spam; unsubscribe any time.</p>
        <form method="post" action="/newsletter" onSubmit={onSubmit} className="relative mt-6 flex flex-col gap-3 sm:flex-row">
          <label htmlFor="newsletter-email" className="sr-only">
            Email address
          </label>
          <Input id="newsletter-email" type="email" name="email" required placeholder="you@example.com" autoComplete="email" className="text-slate-900" />
          <HoneypotField />
          <Button type="submit" variant="secondary" disabled={state.status === "sending"}>
            {state.status === "sending" ? "Subscribing..." : "Subscribe"}
          </Button>
        </form>
        <p role="status" aria-live="polite" data-testid="newsletter-status" className={state.status === "done" ? (state.ok ? "mt-3 text-green-200" : "mt-3 text-red-200") : "sr-only"}>
          {state.status === "done" ? state.message : ""}
        </p>
      </div>
    </section>
  );
}
