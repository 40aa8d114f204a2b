import { ArrowLeft, BookOpen, Globe, Home, LifeBuoy, Wrench } from "#app/components/icons.ts";
import { data, Link } from "react-router";
import type { Route } from "./+types/not-found";
import { Button } from "#app/components/ui/button.tsx";
import { seo } from "#app/lib/seo.ts";
import { findRelevantPage } from "#app/modules/site/find-relevant-page.ts";
import { GoBackButton } from "#app/modules/pages/go-back-button.tsx";
import { RedirectCountdown } from "#app/modules/pages/redirect-countdown.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  const target = findRelevantPage(pathname);
  // which site sent the visitor to a dead link, not what they searched there: the origin only
  context.logger.warn({ path: pathname, referrer: referrerOrigin(request.headers.get("referer")), redirectTo: target.path }, "page not found");
  return data({ path: pathname, redirectTo: target }, { status: 404 });
}

function referrerOrigin(referer: string | null): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return "unreadable";
  }
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  seo(matches, {
    title: "Page Not Found",
    description: "The page you were looking for does not exist. Find the downloader, the guide or the supported sites from here.",
    path: loaderData?.path ?? "/404",
    noindex: true,
  });

const SUGGESTIONS = [
  { to: "/how-to-download", title: "How to Download", text: "Five steps from a video link to a saved MP4 or MP3.", icon: BookOpen },
  { to: "/supported-sites", title: "Supported Sites", text: "Which platforms work today and what is coming next.", icon: Globe },
  { to: "/tools/converters", title: "Video Converters", text: "Convert between video and audio formats in the browser.", icon: Wrench },
] as const;

export default function NotFound({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6">
      <p className="text-6xl font-extrabold text-brand-600" aria-hidden>
        404
      </p>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Oops! Page Not Found</h1>
      <p className="mx-auto mt-4 max-w-xl text-lg text-slate-700">
        We couldn&apos;t find <code className="rounded bg-slate-100 px-1.5 py-0.5 text-base break-all">{loaderData.path}</code>. The link may be
        outdated, or the address may have a typo.
      </p>

      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button asChild size="lg">
          <Link to="/">
            <Home aria-hidden /> Go to Homepage
          </Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/contact-us">
            <LifeBuoy aria-hidden /> Report a Problem
          </Link>
        </Button>
        <GoBackButton size="lg" variant="outline">
          <ArrowLeft aria-hidden /> Go Back
        </GoBackButton>
      </div>

      <RedirectCountdown to={loaderData.redirectTo.path} title={loaderData.redirectTo.title} />

      <section aria-labelledby="suggestions-heading" className="mt-12 text-left">
        <h2 id="suggestions-heading" className="text-center text-xl font-semibold text-slate-900">
          You might be looking for
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-3">
          {SUGGESTIONS.map(({ to, title, text, icon: Icon }) => (
            <li key={to}>
              <Link
                to={to}
                className="flex h-full flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-200 hover:shadow-md"
              >
                <Icon aria-hidden className="size-6 text-brand-600" />
                <span className="mt-3 font-semibold text-slate-900">{title}</span>
                <span className="mt-1 text-sm text-slate-600">{text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
