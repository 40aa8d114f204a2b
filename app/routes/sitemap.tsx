import { FileText } from "#app/components/icons.ts";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/sitemap";
import type { RouteHandle } from "../root";
import { PageHero } from "#app/modules/pages/page-hero.tsx";
import { pageMeta } from "#app/modules/site/page-meta.ts";
import { sitemapPageGroups } from "#app/modules/site/sitemap-groups.server.ts";

/** Spec: header and footer ads are off on the sitemap. */
export const handle: RouteHandle = { hideLayoutAds: true };

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "/sitemap");

/** The groups come through the loader so this route's browser code does not import the link registry (see sitemap-groups.ts). */
export function loader() {
  return { groups: sitemapPageGroups() };
}

export default function Sitemap() {
  const { groups } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHero
        title="Sitemap"
        intro={
          <>
            Every page of the site in one place. Search engines can use the{" "}
            <a href="/sitemap.xml" className="font-medium text-brand-700 underline underline-offset-2">
              XML sitemap
            </a>{" "}
            instead.
          </>
        }
      />
      <div className="mx-auto grid max-w-5xl gap-10 px-4 py-12 sm:grid-cols-2 sm:px-6">
        {groups.map((g) => (
          <section key={g.id} aria-labelledby={`sitemap-${g.id}`}>
            <h2 id={`sitemap-${g.id}`} className="border-b border-slate-200 pb-2 text-lg font-semibold text-slate-900">
              {g.title}
            </h2>
            <ul className="mt-3 space-y-2">
              {g.links.map((l) => (
                <li key={l.to}>
                  <Link to={l.to} className="inline-flex items-start gap-2 text-brand-700 underline-offset-2 hover:underline">
                    <FileText aria-hidden className="mt-1 size-4 shrink-0 text-slate-400" />
                    {l.label}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </>
  );
}
