import type { Route } from "./+types/blog-rss-xml";
import { listAllArticles } from "#app/modules/blog/articles.server.ts";
import { renderRss, RSS_ITEMS } from "#app/modules/blog/rss.server.ts";

/** GET /blog/rss.xml: RSS 2.0 feed of the newest articles. */
export async function loader({ context }: Route.LoaderArgs) {
  const articles = await listAllArticles(context.db, { limit: RSS_ITEMS });
  const body = renderRss({ siteName: context.publicConfig.siteName, publicUrl: context.publicConfig.publicUrl, articles });
  return new Response(body, { headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=900" } });
}
