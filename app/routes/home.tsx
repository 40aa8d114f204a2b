import { useRouteLoaderData } from "react-router";
import { AdSlot } from "#app/components/layout/ad-slot.tsx";
import { seo } from "#app/lib/seo.ts";
import { getFeaturedArticles } from "#app/modules/blog/articles.server.ts";
import { Downloader } from "#app/modules/downloader/components/downloader.tsx";
import { HomeBelowFold, loadHomeSections } from "#app/modules/downloader/components/home-below-fold.tsx";
import { exampleLinks } from "#app/modules/downloader/example-links.ts";
import { downloaderOfferFor } from "#app/modules/downloader/downloader-offer.server.ts";
import { readSharedUrl } from "#app/modules/downloader/shared-url.ts";
import { PlatformNotices } from "#app/modules/platform-health/platform-notices.tsx";
import { findSitePage } from "#app/modules/site/pages.ts";
import type { Route } from "./+types/home";

export async function loader({ request, context }: Route.LoaderArgs) {
  // The downloader must work even when the blog's store does not: the block is then left out.
  const [articles, offer] = await Promise.all([
    getFeaturedArticles(context.db, 3).catch((err: unknown) => {
      context.logger.warn({ err }, "home: featured articles unavailable");
      return [];
    }),
    // what the viewer's plan offers: a playlist's ZIP (bulk downloads), the subtitles' language
    downloaderOfferFor(context, request),
    // the sections below the downloader are rendered here from their own chunk (home-below-fold.tsx)
    loadHomeSections(),
  ]);
  // Read here, on the server, so the page list stays out of the browser bundle.
  const page = findSitePage("/")!;
  return {
    initialUrl: readSharedUrl(new URL(request.url).searchParams),
    examples: exampleLinks("home", context.config.MOCKS),
    articles,
    playlistPlan: offer.playlistPlan,
    subtitleLanguages: offer.subtitleLanguages,
    profiles: offer.profiles,
    // a platform whose downloads fail right now is named above the form (issue 32 §5)
    notices: context.platformNotices?.current() ?? [],
    page: { title: page.title, description: page.description, keywords: page.keywords },
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData ? seo(matches, { ...loaderData.page, path: "/" }) : [];

export default function Home({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData("root") as { publicConfig?: { siteName: string } } | undefined;
  const siteName = root?.publicConfig?.siteName ?? "VidFetch";
  return (
    <>
      <Downloader
        // A new shared link remounts the downloader, so it resolves again.
        key={loaderData.initialUrl ?? ""}
        initialUrl={loaderData.initialUrl}
        examples={loaderData.examples}
        playlistPlan={loaderData.playlistPlan}
        subtitleLanguages={loaderData.subtitleLanguages}
        profiles={loaderData.profiles}
        heroSlot={(form) => (
          <section aria-labelledby="hero-heading" className="bg-gradient-to-b from-brand-50 to-white">
            <div className="mx-auto max-w-3xl px-4 pt-10 pb-6 text-center sm:px-6 sm:pt-16">
              <h1 id="hero-heading" className="text-3xl font-bold tracking-tight text-slate-900 sm:text-5xl">
                Download videos, audio, thumbnails and transcripts
              </h1>
              <p className="mt-4 text-lg text-slate-700">Paste a video link, preview it, and save it as MP4 up to 1080p, MP3 and more. Free, no sign-up, nothing stored.</p>
              <PlatformNotices notices={loaderData.notices} className="mt-6 text-left" />
              <div className="mt-8 text-left">{form}</div>
            </div>
          </section>
        )}
      />
      <AdSlot placement="in-content" />
      <HomeBelowFold siteName={siteName} articles={loaderData.articles} />
    </>
  );
}
