import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useMatches, useRouteLoaderData } from "react-router";
import { useEffect } from "react";
import { Toaster } from "sonner";
import type { Route } from "./+types/root";
import { AdSlot } from "./components/layout/ad-slot.tsx";
import { OfflineNotice } from "./components/layout/offline-notice.tsx";
import { SiteBanner } from "./components/layout/site-banner.tsx";
import { SiteFooter } from "./components/layout/site-footer.tsx";
import { SiteHeader } from "./components/layout/site-header.tsx";
import { useOnlineStatus } from "./lib/hooks/use-online-status.ts";
import { siteJsonLd } from "./lib/seo.ts";
import { viewerFromCookie } from "./modules/billing/viewer.server.ts";
import { useForgetPagesOnSignOut } from "./modules/offline/use-forget-pages-on-sign-out.ts";
import "./app.css";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/site.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/icon-192.png" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  // a renewed session cookie goes back with this page (React Router keeps a parent's Set-Cookie)
  const headers = new Headers();
  const viewer = await sessionViewer(context, request, (setCookies) => setCookies.forEach((c) => headers.append("set-cookie", c)));
  return data(
    {
      publicConfig: context.publicConfig,
      // name and email only: the header's "Dashboard" / "Log in" and nothing more
      user: viewer ? { name: viewer.user.name, email: viewer.user.email } : null,
      // decided here, on the server, so a paying user never sees an ad flash (issue 9 §4)
      showAds: !viewer?.entitlements.adFree,
    },
    { headers },
  );
}

/** A failing session lookup must not take every page down: the header then shows "Log in". */
async function sessionViewer(context: Route.LoaderArgs["context"], request: Request, onRefresh: (setCookies: string[]) => void) {
  try {
    return await viewerFromCookie(context, request.headers.get("cookie"), { onRefresh });
  } catch (err) {
    context.logger.error({ err }, "session lookup failed");
    return null;
  }
}

export interface RouteHandle {
  /** header and footer ad slots off on this page (spec: /sitemap) */
  hideLayoutAds?: boolean;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const matches = useMatches();
  const hideLayoutAds = matches.some((m) => (m.handle as RouteHandle | undefined)?.hideLayoutAds);
  const cfg = data?.publicConfig;
  const siteName = cfg?.siteName ?? "VidFetch";
  useForgetPagesOnSignOut(Boolean(data?.user));
  useEffect(() => {
    // offline support (app/modules/offline): its own chunk, fetched after the page is up
    if (import.meta.env.PROD) void import("./modules/offline/register.ts").then((m) => m.startServiceWorker());
  }, []);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1f57d6" />
        <Meta />
        <Links />
        {cfg
          ? siteJsonLd(cfg).map((obj) => (
              <script key={String(obj["@type"])} type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(obj).replace(/</g, "\\u003c") }} />
            ))
          : null}
      </head>
      <body className="flex min-h-screen flex-col">
        <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
          Skip to content
        </a>
        {cfg ? <SiteBanner message={cfg.bannerMessage} /> : null}
        <SiteHeader siteName={siteName} user={data?.user ?? null} />
        <OfflineNotice />
        {hideLayoutAds ? null : <AdSlot placement="header" />}
        <main id="main" className="flex-1">
          {children}
        </main>
        {hideLayoutAds ? null : <AdSlot placement="footer" />}
        <SiteFooter siteName={siteName} />
        <Toaster position="bottom-right" visibleToasts={3} gap={14} hotkey={["altKey", "KeyT"]} richColors closeButton />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** The router's error screen (spec §8 "Routing"): status or message, never a stack in production. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const online = useOnlineStatus();
  // offline, a client-side visit to a page never saved fails for want of its data: say so
  if (!online && !isRouteErrorResponse(error)) return <NotSavedOffline />;
  let detail = "An unexpected error occurred. Please try again later.";
  let status: number | undefined;
  if (isRouteErrorResponse(error)) {
    status = error.status;
    detail = `${error.status} ${error.statusText || ""}`.trim();
  } else if (import.meta.env.DEV && error instanceof Error) {
    detail = error.message;
  }
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold text-slate-900">Unexpected Application Error!</h1>
      <p className="mt-4 text-lg text-slate-700">{detail}</p>
      {status !== 404 ? (
        <p className="mt-6">
          <a href="/" className="font-medium text-brand-700 underline">
            Go to Homepage
          </a>
        </p>
      ) : null}
    </section>
  );
}

/** The offline page's message (public/offline.html), for a page reached by a link while offline. */
function NotSavedOffline() {
  return (
    <section className="mx-auto max-w-2xl px-4 py-24">
      <h1 className="text-3xl font-bold text-slate-900">This page isn&apos;t saved for offline use</h1>
      <p className="mt-4 text-lg text-slate-700">
        You opened a page you haven&apos;t visited on this device yet, so there is no copy of it to show without a connection. Reload it once you&apos;re back online.
      </p>
      <p className="mt-4 text-slate-700">
        <a href="/" className="font-medium text-brand-700 underline">
          Home
        </a>
        , the{" "}
        <a href="/tools/text" className="font-medium text-brand-700 underline">
          tools
        </a>{" "}
        and every page you have already visited work without a connection.
      </p>
    </section>
  );
}
