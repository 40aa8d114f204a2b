import { Mail } from "#app/components/icons.ts";
import { Link } from "react-router";
import type { Route } from "./+types/faq";
import { AdSlot } from "#app/components/layout/ad-slot.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { publicConfigFrom } from "#app/lib/seo.ts";
import { FaqAccordion, faqJsonLd } from "#app/modules/pages/faq-accordion.tsx";
import { faqItems } from "#app/modules/pages/faq-items.ts";
import { PageHero } from "#app/modules/pages/page-hero.tsx";
import { pageMeta } from "#app/modules/site/page-meta.ts";
import { usePublicConfig } from "#app/lib/hooks/use-public-config.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "/faq", { jsonLd: [faqJsonLd(faqItems(publicConfigFrom(matches)?.siteName ?? "this service"))] });

export default function Faq() {
  const { siteName } = usePublicConfig();
  const items = faqItems(siteName);
  return (
    <>
      <PageHero
        eyebrow="Help"
        title="Frequently Asked Questions"
        intro={`Short, honest answers to what people ask before their first download with ${siteName}.`}
      />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[1fr_300px]">
        <section aria-label="Questions and answers">
          <FaqAccordion items={items} />
          <p className="mt-8 text-slate-700">
            New here? The{" "}
            <Link to="/how-to-download" className="font-medium text-brand-700 underline underline-offset-2">
              step-by-step guide
            </Link>{" "}
            walks through a first download, and{" "}
            <Link to="/supported-sites" className="font-medium text-brand-700 underline underline-offset-2">
              Supported Sites
            </Link>{" "}
            lists every platform that works.
          </p>
        </section>
        <aside aria-label="More help" className="space-y-6">
          <div className="rounded-2xl border border-slate-200 bg-slate-50 p-6">
            <h2 className="text-lg font-semibold text-slate-900">Still have a question?</h2>
            <p className="mt-2 text-sm leading-6 text-slate-700">Write to us and we will answer within 24-48 hours.</p>
            <Button asChild className="mt-4 w-full">
              <Link to="/contact-us">
                <Mail aria-hidden /> Contact us
              </Link>
            </Button>
          </div>
          <AdSlot placement="sidebar" />
        </aside>
      </div>
    </>
  );
}
