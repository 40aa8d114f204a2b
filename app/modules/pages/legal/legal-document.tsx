import type { ReactNode } from "react";
import { Link } from "react-router";
import { PageHero } from "../page-hero.tsx";
import { formatLegalDate } from "./legal-dates.ts";

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

export interface LegalContext {
  siteName: string;
  /** CONTACT_EMAIL; unset: the texts point to the contact form only */
  contactEmail: string | undefined;
  publicUrl: string;
  /** SUPPORT_ULTIMATE_EMAIL is set: Ultimate members have a named address (the terms say so) */
  accountManager?: boolean;
}

/** Where to write: the configured address, or the contact form when the site has none. */
export function WriteTo({ ctx, subject }: { ctx: LegalContext; subject?: string }) {
  if (!ctx.contactEmail) {
    return (
      <>
        our <Link to="/contact-us">contact form</Link>
        {subject ? <> with &quot;{subject}&quot; as the subject</> : null}
      </>
    );
  }
  return (
    <>
      <a href={`mailto:${ctx.contactEmail}`}>{ctx.contactEmail}</a>
      {subject ? <> with &quot;{subject}&quot; in the subject line</> : null}
    </>
  );
}

/** A legal page: title, generated "Last updated" line, table of contents, numbered sections. */
export function LegalDocument({ title, lastChanged, intro, sections }: { title: string; lastChanged: string; intro?: ReactNode; sections: LegalSection[] }) {
  return (
    <>
      <PageHero eyebrow="Legal" title={title}>
        <p className="mt-3 text-sm text-slate-600">
          Last updated: <time dateTime={lastChanged}>{formatLegalDate(lastChanged)}</time>
        </p>
        {intro ? <div className="mt-4 max-w-3xl text-lg leading-8 text-slate-700">{intro}</div> : null}
      </PageHero>
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[240px_1fr]">
        <nav aria-label="On this page" className="lg:sticky lg:top-24 lg:self-start">
          <h2 className="text-sm font-semibold tracking-wide text-slate-500 uppercase">On this page</h2>
          <ol className="mt-3 space-y-1.5 text-sm">
            {sections.map((s, i) => (
              <li key={s.id}>
                <a href={`#${s.id}`} className="text-slate-700 hover:text-brand-700 hover:underline">
                  {i + 1}. {s.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        <article className="prose-page">
          {sections.map((s, i) => (
            <section key={s.id} id={s.id} aria-labelledby={`${s.id}-heading`} className="scroll-mt-24" data-testid="legal-section">
              <h2 id={`${s.id}-heading`}>
                {i + 1}. {s.title}
              </h2>
              {s.body}
            </section>
          ))}
        </article>
      </div>
    </>
  );
}

/** The contact paragraph every legal text ends with. */
export function ContactLines({ ctx, topic }: { ctx: LegalContext; topic: string }) {
  return (
    <>
      <p>
        Questions about {topic}?{" "}
        {ctx.contactEmail ? (
          <>
            Write to <a href={`mailto:${ctx.contactEmail}`}>{ctx.contactEmail}</a> or use our <Link to="/contact-us">contact form</Link>.
          </>
        ) : (
          <>
            Write to us through our <Link to="/contact-us">contact form</Link>.
          </>
        )}{" "}
        We answer within 24-48 hours.
      </p>
    </>
  );
}
