import { ShieldCheck } from "#app/components/icons.ts";
import type { ReactNode } from "react";
import { PageHero } from "#app/modules/pages/page-hero.tsx";

/** The frame every tools page shares: heading, the privacy promise, the tool, then a short how-to. */
export function ToolPage({ title, intro, howTo, about, children }: { title: string; intro: ReactNode; howTo: string[]; about: ReactNode; children: ReactNode }) {
  return (
    <>
      <PageHero eyebrow="Free tools" title={title} intro={intro}>
        <p className="mt-5 inline-flex items-start gap-2 rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-900">
          <ShieldCheck aria-hidden className="mt-0.5 size-4 shrink-0" />
          Your file never leaves your device: everything runs in your browser, nothing is uploaded.
        </p>
      </PageHero>
      <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
        {children}
        <div className="mt-12 grid gap-8 md:grid-cols-2">
          <section aria-labelledby="tool-how-to">
            <h2 id="tool-how-to" className="text-xl font-semibold text-slate-900">
              How to use it
            </h2>
            <ol className="mt-3 list-decimal space-y-2 pl-5 text-slate-700">
              {howTo.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
          </section>
          <section aria-labelledby="tool-about">
            <h2 id="tool-about" className="text-xl font-semibold text-slate-900">
              How it works
            </h2>
            <div className="mt-3 space-y-3 text-slate-700">{about}</div>
          </section>
        </div>
      </div>
    </>
  );
}

/** A titled card around one tool of a page. */
export function ToolCard({ id, title, description, children }: { id: string; title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}

export function ToolAlert({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {children}
    </p>
  );
}

/** JSON-LD for a tools page: a free WebApplication that runs in the browser. */
export function toolJsonLd(name: string, description: string, url: string): Record<string, unknown> {
  return {
    "@context": "https://schema.org",
    "@type": "WebApplication",
    name,
    description,
    url,
    applicationCategory: "MultimediaApplication",
    operatingSystem: "Any (web browser)",
    browserRequirements: "Requires JavaScript",
    offers: { "@type": "Offer", price: "0", priceCurrency: "USD" },
  };
}
