import { CalendarDays, Clock } from "#app/components/icons.ts";
import { IntentSiteLink } from "#app/components/ui/site-link.tsx";
import { articlePath, type ArticleSummary } from "../types.ts";
import { PremiumBadge } from "./premium-body.tsx";

function Meta({ a }: { a: ArticleSummary }) {
  return (
    <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600">
      <span className="inline-flex items-center gap-1">
        <CalendarDays aria-hidden className="size-4" />
        <time dateTime={a.publishedAt}>{a.date}</time>
      </span>
      <span className="inline-flex items-center gap-1">
        <Clock aria-hidden className="size-4" />
        {a.readTime}
      </span>
    </p>
  );
}

/** The first article of the list, shown large. */
export function FeaturedArticleCard({ article: a }: { article: ArticleSummary }) {
  return (
    <article data-testid="featured-article" className="grid overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm md:grid-cols-2">
      <IntentSiteLink to={articlePath(a.slug)} tabIndex={-1} aria-hidden>
        <img src={a.image} alt="" width={800} height={450} className="aspect-video size-full object-cover" />
      </IntentSiteLink>
      <div className="flex flex-col justify-center gap-3 p-6">
        <p className="flex flex-wrap items-center gap-2 text-xs font-semibold tracking-wide text-brand-700 uppercase">
          Featured · {a.tags[0]}
          {a.premium ? <PremiumBadge /> : null}
        </p>
        <h2 className="text-2xl font-bold text-slate-900">
          <IntentSiteLink to={articlePath(a.slug)} className="hover:text-brand-700">
            {a.title}
          </IntentSiteLink>
        </h2>
        <p className="text-slate-700">{a.excerpt}</p>
        <Meta a={a} />
        <p className="text-sm text-slate-600">By {a.author}</p>
        <IntentSiteLink to={articlePath(a.slug)} className="font-semibold text-brand-700 hover:underline">
          Read Article →<span className="sr-only">: {a.title}</span>
        </IntentSiteLink>
      </div>
    </article>
  );
}

/** One article in the grid. */
export function ArticleCard({ article: a, headingLevel = 3, imageSize = "list" }: { article: ArticleSummary; headingLevel?: 2 | 3; imageSize?: "list" | "related" }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const [w, h] = imageSize === "related" ? [400, 225] : [800, 450];
  return (
    <article data-testid="article-card" className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
      <IntentSiteLink to={articlePath(a.slug)} tabIndex={-1} aria-hidden>
        <img src={a.image} alt="" width={w} height={h} loading="lazy" className="aspect-video w-full object-cover" />
      </IntentSiteLink>
      <div className="flex flex-1 flex-col gap-2 p-5">
        {a.premium ? <PremiumBadge /> : null}
        <Heading className="text-lg font-semibold text-slate-900">
          <IntentSiteLink to={articlePath(a.slug)} className="hover:text-brand-700">
            {a.title}
          </IntentSiteLink>
        </Heading>
        <p className="line-clamp-3 text-sm text-slate-700">{a.excerpt}</p>
        <div className="mt-auto pt-2">
          <Meta a={a} />
        </div>
        <IntentSiteLink to={articlePath(a.slug)} className="text-sm font-semibold text-brand-700 hover:underline">
          Read →<span className="sr-only">: {a.title}</span>
        </IntentSiteLink>
      </div>
    </article>
  );
}
