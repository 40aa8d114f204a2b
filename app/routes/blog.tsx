import { Search } from "#app/components/icons.ts";
import { useEffect, useRef } from "react";
import { Form, Link, useNavigation, useSubmit } from "react-router";
import type { Route } from "./+types/blog";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { seo } from "#app/lib/seo.ts";
import { cleanTag, listArticles, listLocalGuides } from "#app/modules/blog/articles.server.ts";
import { controlsToSpaces } from "#app/modules/blog/clean-text.ts";
import { FIRST_SHOWN, LOAD_MORE_STEP, MAX_SHOWN } from "#app/modules/blog/list-constants.ts";
import { blogListUrl } from "#app/modules/blog/blog-urls.ts";
import { ArticleCard, FeaturedArticleCard } from "#app/modules/blog/components/article-card.tsx";
import { GuideList } from "#app/modules/blog/components/guide-list.tsx";
import { NewsletterBox } from "#app/modules/blog/components/newsletter-box.tsx";
import { TagChips } from "#app/modules/blog/components/tag-chips.tsx";
import { formatLongDate } from "#app/modules/blog/types.ts";
import { useNewArticlesToast } from "#app/modules/blog/use-new-articles-toast.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // control characters (a NUL would fail the query) are dropped while parsing
  const tag = cleanTag(url.searchParams.get("tag"));
  const q = controlsToSpaces(url.searchParams.get("q") ?? "").slice(0, 100);
  const requested = Number.parseInt(url.searchParams.get("show") ?? "", 10);
  const show = Number.isFinite(requested) ? Math.min(Math.max(requested, FIRST_SHOWN), MAX_SHOWN) : FIRST_SHOWN;
  const filtered = Boolean(tag || q.trim());
  const [list, local] = await Promise.all([listArticles(context.db, { tag, q, limit: show }), filtered ? [] : listLocalGuides(context.db)]);
  // the written guides always show on the unfiltered list, besides the newest articles
  const shown = new Set(list.articles.map((a) => a.slug));
  return { ...list, guides: local.filter((g) => !shown.has(g.slug)), tag, q, show };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const updated = loaderData?.updatedDay ? ` Updated ${formatLongDate(`${loaderData.updatedDay}T00:00:00Z`)}.` : "";
  return seo(matches, {
    title: "Blog: Latest Articles",
    description: `Guides on saving videos safely and legally, choosing formats and quality, mobile downloads and copyright.${updated}`,
    path: "/blog",
    keywords: ["video download blog", "download guides", "mp4", "mp3", "video quality", "copyright"],
    // filtered views share the list's canonical URL and stay out of the index
    noindex: Boolean(loaderData?.tag || loaderData?.q),
    extra: [{ tagName: "link", rel: "alternate", type: "application/rss+xml", title: "Blog RSS feed", href: "/blog/rss.xml" }],
  });
};

export default function BlogList({ loaderData }: Route.ComponentProps) {
  const { articles, guides, total, tags, tag, q, show, latestPublishedAt } = loaderData;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/blog";
  useNewArticlesToast(latestPublishedAt);

  const chips = tag && !tags.some((t) => t.tag.toLowerCase() === tag.toLowerCase()) ? [{ tag, count: 0 }, ...tags] : tags;
  const [featured, ...rest] = articles;
  const filtered = Boolean(tag || q.trim());

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <header className="text-center">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Latest Articles</h1>
        <p className="mt-2 text-slate-600">Articles updated weekly</p>
      </header>

      <SearchBox q={q} tag={tag} />

      <div className="mt-6 space-y-3">
        <TagChips tags={chips} active={tag} q={q} />
        {tag ? (
          <Button asChild variant="outline" size="sm">
            <Link to={blogListUrl({ q })} preventScrollReset>
              Clear Filter
            </Link>
          </Button>
        ) : null}
      </div>

      <div aria-live="polite" aria-busy={loading} className={loading ? "opacity-60 transition-opacity" : undefined}>
        <p className="sr-only">{total === 1 ? "1 article found" : `${total} articles found`}</p>
        {featured ? (
          <div className="mt-8 space-y-8">
            <FeaturedArticleCard article={featured} />
            {rest.length ? (
              <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
                {rest.map((a) => (
                  <ArticleCard key={a.slug} article={a} headingLevel={2} />
                ))}
              </div>
            ) : null}
            {total > articles.length ? (
              <div className="text-center">
                <Button asChild variant="outline" size="lg">
                  <Link to={blogListUrl({ tag, q, show: show + LOAD_MORE_STEP })} preventScrollReset replace>
                    Load More Articles
                  </Link>
                </Button>
              </div>
            ) : null}
          </div>
        ) : (
          <div className="mt-12 rounded-2xl border border-dashed border-slate-300 px-6 py-16 text-center" data-testid="empty-state">
            <h2 className="text-xl font-semibold text-slate-900">No articles found</h2>
            <p className="mt-2 text-slate-600">{filtered ? "Try another search or tag." : "New articles are on their way."}</p>
            {filtered ? (
              <Button asChild className="mt-6">
                <Link to="/blog">Clear All Filters</Link>
              </Button>
            ) : null}
          </div>
        )}
      </div>

      <GuideList guides={guides} />

      <div className="mt-16">
        <NewsletterBox />
      </div>
    </div>
  );
}

/** GET form: works without JavaScript; with it, results follow the typing (debounced). */
function SearchBox({ q, tag }: { q: string; tag: string | null }) {
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => () => clearTimeout(timer.current), []);
  // follow the URL (Clear All Filters, back button) without fighting the visitor's typing
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = q;
  }, [q]);
  return (
    <Form method="get" action="/blog" role="search" className="mx-auto mt-8 flex max-w-xl gap-2" preventScrollReset>
      <label htmlFor="blog-search" className="sr-only">
        Search articles
      </label>
      <div className="relative flex-1">
        <Search aria-hidden className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" />
        <Input
          id="blog-search"
          type="search"
          name="q"
          ref={input}
          defaultValue={q}
          placeholder="Search articles..."
          className="pl-9"
          maxLength={100}
          onChange={(e) => {
            const form = e.currentTarget.form;
            clearTimeout(timer.current);
            timer.current = setTimeout(() => form && submit(form, { replace: true, preventScrollReset: true }), 300);
          }}
        />
      </div>
      {tag ? <input type="hidden" name="tag" value={tag} /> : null}
      <Button type="submit">Search</Button>
    </Form>
  );
}
