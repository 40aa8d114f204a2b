import { Clock, Mail, MessageSquareText } from "#app/components/icons.ts";
import { Link, useActionData } from "react-router";
import type { Route } from "./+types/contact-us";
import { AdSlot } from "#app/components/layout/ad-slot.tsx";
import { CONTACT_FORM } from "#app/modules/contact/contact-form.ts";
import { CONTACT_FIELDS, CONTACT_MESSAGES, parseContactForm } from "#app/modules/contact/contact-schema.ts";
import { submitContactMessage } from "#app/modules/contact/submit-contact-message.server.ts";
import { StoredForm } from "#app/modules/stored-form/stored-form.tsx";
import { storedFormAction } from "#app/modules/stored-form/stored-form-action.server.ts";
import { viewerFromCookie } from "#app/modules/billing/viewer.server.ts";
import { PageHero } from "#app/modules/pages/page-hero.tsx";
import { pageMeta } from "#app/modules/site/page-meta.ts";
import { usePublicConfig } from "#app/lib/hooks/use-public-config.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "/contact-us");

export function action({ request, context }: Route.ActionArgs) {
  return storedFormAction(request, context, {
    fields: CONTACT_FIELDS,
    parse: parseContactForm,
    messages: CONTACT_MESSAGES,
    submit: submitContactMessage,
    // a signed-in member's plan: Pro and Ultimate messages are marked priority
    sender: async (req, ctx) => {
      const viewer = await viewerFromCookie(ctx, req.headers.get("cookie"));
      return viewer ? { plan: viewer.plan.plan } : null;
    },
  });
}

const QUESTIONS = [
  {
    q: "How quickly will you reply?",
    a: "A person reads every message. Expect an answer within 24-48 hours, usually sooner on weekdays. Copyright notices are handled first, then messages from Pro and Ultimate members (send them while signed in: they are marked priority).",
  },
  {
    q: "A download failed. What should I send you?",
    a: "The video link, the format and quality you picked (for example MP4 720p), roughly when it happened, and the message you saw. With those we can reproduce the problem on our server.",
  },
  {
    q: "How do I report copyright infringement?",
    a: "Send a notice with the details listed on our DMCA page. We never host the videos themselves, but we act on valid notices, for example by blocking a link from being processed again.",
  },
] as const;

export default function ContactUs() {
  const { contactEmail, siteName } = usePublicConfig();
  const actionResult = useActionData<typeof action>();
  return (
    <>
      <PageHero
        eyebrow="Contact"
        title="Contact Us"
        intro={`Questions about ${siteName}, a download that will not start, a platform you would like us to support, or a business enquiry: write to us and a person will answer.`}
      />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[1fr_300px]">
        <div className="space-y-12">
          <section aria-labelledby="form-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
            <h2 id="form-heading" className="mb-6 flex items-center gap-2 text-xl font-semibold text-slate-900">
              <MessageSquareText aria-hidden className="size-5 text-brand-600" /> Send us a message
            </h2>
            <StoredForm layout={CONTACT_FORM} validate={parseContactForm} actionResult={actionResult} />
            <p className="mt-4 text-sm text-slate-600" data-testid="where-messages-go">
              {contactEmail
                ? `Your message is stored on our server and sent by email to the team that runs ${siteName} (${contactEmail}); a reply comes to the address you give.`
                : `Your message is stored on our server, where the team that runs ${siteName} reads it; a reply comes to the address you give.`}
            </p>
          </section>

          <section aria-labelledby="contact-faq-heading">
            <h2 id="contact-faq-heading" className="text-xl font-semibold text-slate-900">
              Before you write
            </h2>
            <dl className="mt-4 space-y-5">
              {QUESTIONS.map(({ q, a }) => (
                <div key={q} className="rounded-xl border border-slate-200 p-5">
                  <dt className="font-semibold text-slate-900">{q}</dt>
                  <dd className="mt-2 leading-7 text-slate-700">
                    {a}
                    {q.startsWith("How do I report") ? (
                      <>
                        {" "}
                        <Link to="/dmca" className="font-medium text-brand-700 underline underline-offset-2">
                          Read the DMCA policy
                        </Link>
                        .
                      </>
                    ) : null}
                  </dd>
                </div>
              ))}
            </dl>
            <p className="mt-6 text-slate-700">
              More answers about formats, quality, limits and safety are in the{" "}
              <Link to="/faq" className="font-medium text-brand-700 underline underline-offset-2">
                FAQ
              </Link>
              .
            </p>
          </section>
        </div>

        <aside aria-label="Contact information" className="space-y-6">
          <div className="rounded-2xl border border-slate-200 bg-slate-50 p-6">
            <h2 className="text-lg font-semibold text-slate-900">Contact information</h2>
            <ul className="mt-4 space-y-4 text-sm text-slate-700">
              {contactEmail ? (
                <li className="flex gap-3">
                  <Mail aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-600" />
                  <span>
                    <span className="block font-medium text-slate-900">Email</span>
                    <a href={`mailto:${contactEmail}`} className="break-all text-brand-700 underline underline-offset-2">
                      {contactEmail}
                    </a>
                  </span>
                </li>
              ) : null}
              <li className="flex gap-3">
                <Clock aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-600" />
                <span>
                  <span className="block font-medium text-slate-900">Response time</span>
                  We answer every message within 24-48 hours.
                </span>
              </li>
            </ul>
          </div>
          <AdSlot placement="sidebar" />
        </aside>
      </div>
    </>
  );
}
