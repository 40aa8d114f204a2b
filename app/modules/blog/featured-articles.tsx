import { Link } from "react-router";
import { ArticleCard } from "./components/article-card.tsx";
import type { ArticleSummary } from "./types.ts";

/**
 * The home page's three featured blog articles (spec §2 "Home": image, title, excerpt, date,
 * read link). Data: `getFeaturedArticles(context.db, 3)` from articles.server.ts in the loader.
 */
export function FeaturedArticles({ articles, title = "Latest from the Blog" }: { articles: ArticleSummary[]; title?: string }) {
  if (articles.length === 0) return null;
  return (
    <section aria-labelledby="featured-articles-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <h2 id="featured-articles-heading" className="text-2xl font-bold text-slate-900 sm:text-3xl">
          {title}
        </h2>
        <Link to="/blog" className="font-semibold text-brand-700 hover:underline">
          View all articles →
        </Link>
      </div>
      <div className="grid gap-6 md:grid-cols-3">
        {articles.map((a) => (
          <ArticleCard key={a.slug} article={a} />
        ))}
      </div>
    </section>
  );
}
