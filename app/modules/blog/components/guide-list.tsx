import { CalendarDays, Clock } from "#app/components/icons.ts";
import { Link } from "react-router";
import { articlePath, type ArticleSummary } from "../types.ts";
import { PremiumBadge } from "./premium-body.tsx";

/**
 * The written (local) guides, listed compactly on the first page of /blog so fifteen generated
 * articles a day never push them out of sight.
 */
export function GuideList({ guides }: { guides: ArticleSummary[] }) {
  if (guides.length === 0) return null;
  return (
    <section aria-labelledby="guides-heading" className="mt-16" data-testid="guide-list">
      <h2 id="guides-heading" className="text-2xl font-bold text-slate-900">
        Essential Guides
      </h2>
      <p className="mt-1 text-slate-600">In-depth articles written by our team.</p>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2">
        {guides.map((g) => (
          <li key={g.slug} className="rounded-xl border border-slate-200 bg-white p-4" data-testid="guide-item">
            <h3 className="font-semibold text-slate-900">
              <Link to={articlePath(g.slug)} prefetch="intent" className="hover:text-brand-700">
                {g.title}
              </Link>
            </h3>
            {g.premium ? (
              <p className="mt-1">
                <PremiumBadge />
              </p>
            ) : null}
            <p className="mt-1 line-clamp-2 text-sm text-slate-700">{g.excerpt}</p>
            <p className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600">
              <span className="inline-flex items-center gap-1">
                <CalendarDays aria-hidden className="size-4" />
                <time dateTime={g.publishedAt}>{g.date}</time>
              </span>
              <span className="inline-flex items-center gap-1">
                <Clock aria-hidden className="size-4" />
                {g.readTime}
              </span>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
