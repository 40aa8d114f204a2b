import { Search } from "#app/components/icons.ts";
import { Form, Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { seo } from "#app/lib/seo.ts";
import { MAX_QUERY_LENGTH } from "#app/modules/site/pages.ts";
import { searchSite } from "#app/modules/site/search.server.ts";
import type { Route } from "./+types/search";

export async function loader({ request, context }: Route.LoaderArgs) {
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, MAX_QUERY_LENGTH);
  const hits = q ? await searchSite(context.db, q) : [];
  return { q, hits };
}

export const meta: Route.MetaFunction = ({ matches, data }) =>
  seo(matches, {
    title: data?.q ? `Search results for "${data.q}"` : "Search",
    description: "Search the site's guides, help pages and articles.",
    path: "/search",
    noindex: true,
  });

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { q, hits } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-slate-900">Search</h1>
      <Form method="get" role="search" className="mt-6 flex gap-2">
        <label htmlFor="site-search" className="sr-only">
          Search the site
        </label>
        <Input id="site-search" name="q" type="search" defaultValue={q} maxLength={MAX_QUERY_LENGTH} placeholder="Search guides, help and articles" />
        <Button type="submit">
          <Search aria-hidden /> Search
        </Button>
      </Form>
      {q ? (
        <section aria-live="polite" className="mt-8">
          <p className="text-sm text-slate-600">
            {hits.length === 0 ? `No results for "${q}".` : `${hits.length} result${hits.length === 1 ? "" : "s"} for "${q}"`}
          </p>
          {hits.length === 0 ? (
            <p className="mt-4 text-slate-700">
              Try other words, or browse the <Link to="/sitemap" className="text-brand-700 underline">sitemap</Link> or the{" "}
              <Link to="/faq" className="text-brand-700 underline">FAQ</Link>.
            </p>
          ) : (
            <ol className="mt-4 space-y-6">
              {hits.map((hit) => (
                <li key={hit.url}>
                  <Link to={hit.url} className="text-lg font-semibold text-brand-700 hover:underline">
                    {hit.title}
                  </Link>
                  <p className="text-xs text-slate-500">{hit.kind === "article" ? "Article" : "Page"} · {hit.url}</p>
                  <p className="mt-1 text-slate-700">{hit.description}</p>
                </li>
              ))}
            </ol>
          )}
        </section>
      ) : null}
    </div>
  );
}
