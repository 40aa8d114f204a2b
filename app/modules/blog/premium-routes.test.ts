import pino from "pino";
import { describe, expect, it } from "vitest";
import { headers as articleHeaders, loader as articleLoader, meta as articleMeta } from "#app/routes/blog-article.tsx";
import { loader as rssLoader } from "#app/routes/blog-rss-xml.ts";
import { cookieHeaderFrom, insertActiveSubscription, testAccounts } from "#tests/support/accounts.ts";
import { routeContext } from "#tests/support/route-context.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { listAllArticles } from "./articles.server.ts";
import { splitIntroduction } from "./premium.ts";
import { getLocalArticles } from "./local-articles.server.ts";
import { searchBlogArticles } from "./search-source.server.ts";

/**
 * Premium articles through the routes, as the server calls them: who gets the whole text, what
 * the page's structured data says, and that the feed and the site search carry no hidden text.
 */
const PREMIUM_SLUG = "video-resolutions-bitrates-explained";
/** a sentence after the introduction of PREMIUM_SLUG */
const LATER_SENTENCE = "Raw video is enormous.";
const FREE_SLUG = "how-to-download-youtube-videos-safely";

type Answer = { status: number; body: Record<string, unknown>; headers: Headers };

async function settle(run: () => Promise<unknown>): Promise<Answer> {
  const result = await run();
  if (result && typeof result === "object" && (result as { type?: string }).type === "DataWithResponseInit") {
    const r = result as { data: Record<string, unknown>; init: ResponseInit | null };
    return { status: r.init?.status ?? 200, body: r.data, headers: new Headers(r.init?.headers) };
  }
  return { status: 200, body: result as Record<string, unknown>, headers: new Headers() };
}

describe.each(testDatabases)("premium articles on $name", (variant) => {
  const { skip, openShared } = withTestDatabase(variant);
  let setup: Promise<{ handle: TestDatabase; context: object; cookies: Record<"free" | "basic" | "pro" | "ultimate", string> }> | undefined;

  /** One database for the block, with an account on each plan. */
  const prepared = () =>
    (setup ??= (async () => {
      const handle = await openShared();
      const accounts = testAccounts(handle.db);
      const context = { ...routeContext(handle.db), accounts, publicConfig: { publicUrl: "http://localhost", siteName: "VidFetch" }, logger: pino({ level: "silent" }) };
      const cookies = {} as Record<"free" | "basic" | "pro" | "ultimate", string>;
      for (const plan of ["free", "basic", "pro", "ultimate"] as const) {
        const res = await accounts.auth.api.signUpEmail({ body: { name: `Reader ${plan}`, email: `${plan}-${Date.now()}@example.com`, password: "analytical-engine" }, asResponse: true });
        const userId = ((await res.clone().json()) as { user: { id: string } }).user.id;
        if (plan !== "free") await insertActiveSubscription(handle.db, userId, plan);
        cookies[plan] = cookieHeaderFrom(res);
      }
      return { handle, context, cookies };
    })());

  const open = async (slug: string, cookie?: string) => {
    const { context } = await prepared();
    const request = new Request(`http://localhost/blog/${slug}`, { headers: cookie ? { cookie } : {} });
    return settle(() => articleLoader({ request, context, params: { slug } } as never));
  };

  it.skipIf(skip)("gives the whole text to Pro and Ultimate only, privately; everyone else the introduction", async () => {
    const { cookies } = await prepared();
    const full = getLocalArticles().find((a) => a.slug === PREMIUM_SLUG)!;
    expect(full.premium).toBe(true);
    expect(full.contentHtml).toContain(LATER_SENTENCE);
    const { intro } = splitIntroduction(full.contentHtml);

    for (const [reader, cookie] of [["anonymous", undefined], ["free", cookies.free], ["basic", cookies.basic]] as const) {
      const res = await open(PREMIUM_SLUG, cookie);
      expect(res.status, reader).toBe(200);
      expect(res.body.body, reader).toEqual({ kind: "locked", introHtml: intro, signedIn: reader !== "anonymous" });
      // nowhere in what the page is made from
      expect(JSON.stringify(res.body), reader).not.toContain(LATER_SENTENCE);
      expect(res.body.article, reader).not.toHaveProperty("contentHtml");
      expect(res.headers.get("cache-control"), reader).toBeNull();
    }
    for (const reader of ["pro", "ultimate"] as const) {
      const res = await open(PREMIUM_SLUG, cookies[reader]);
      expect(res.body.body, reader).toMatchObject({ kind: "premium", introHtml: intro });
      expect((res.body.body as { introHtml: string; premiumHtml: string }).premiumHtml, reader).toContain(LATER_SENTENCE);
      expect(res.headers.get("cache-control"), reader).toBe("private, no-store");
      // the page's answer carries it too
      expect(new Headers(articleHeaders({ loaderHeaders: res.headers, parentHeaders: new Headers(), actionHeaders: new Headers(), errorHeaders: undefined } as never)).get("cache-control")).toBe("private, no-store");
    }
  });

  it.skipIf(skip)("sends a free article whole to everyone", async () => {
    const { cookies } = await prepared();
    const full = getLocalArticles().find((a) => a.slug === FREE_SLUG)!;
    for (const cookie of [undefined, cookies.free, cookies.pro]) {
      const res = await open(FREE_SLUG, cookie);
      expect(res.body.body).toEqual({ kind: "free", html: full.contentHtml });
      expect(res.headers.get("cache-control")).toBeNull();
    }
  });

  it.skipIf(skip)("locks the generated premium articles the same way", async () => {
    const { handle, cookies } = await prepared();
    const generated = (await listAllArticles(handle.db)).filter((a) => a.source === "generated");
    const premium = generated.filter((a) => a.premium);
    expect(premium.length).toBeGreaterThan(0);
    expect(premium.length).toBeLessThan(generated.length / 2);
    const slug = premium[0]!.slug;
    const anonymous = await open(slug);
    const pro = await open(slug, cookies.pro);
    expect(anonymous.body.body).toMatchObject({ kind: "locked" });
    const { premiumHtml } = pro.body.body as { premiumHtml: string };
    const hidden = /<p>([^<]{20,}?)<\/p>/.exec(premiumHtml)?.[1];
    expect(hidden).toBeTruthy();
    expect(JSON.stringify(anonymous.body)).not.toContain(hidden);
    // and it stays premium: the flag is derived from the stored article
    expect((await listAllArticles(handle.db)).find((a) => a.slug === slug)?.premium).toBe(true);
  });

  it.skipIf(skip)("marks a premium article's structured data as not free, naming the premium element", async () => {
    const jsonLd = async (slug: string) => {
      const res = await open(slug);
      const tags = articleMeta({ matches: [], loaderData: res.body, params: { slug } } as never) as Record<string, unknown>[];
      return tags.map((t) => t["script:ld+json"] as Record<string, unknown> | undefined).find((o) => o?.["@type"] === "BlogPosting")!;
    };
    const premium = await jsonLd(PREMIUM_SLUG);
    expect(premium).toMatchObject({
      headline: "Video Resolutions and Bitrates Explained: 360p to 2160p",
      isAccessibleForFree: false,
      hasPart: { "@type": "WebPageElement", isAccessibleForFree: false, cssSelector: ".premium-content" },
    });
    const free = await jsonLd(FREE_SLUG);
    expect(free.headline).toBeTruthy();
    expect(free).not.toHaveProperty("isAccessibleForFree");
    expect(free).not.toHaveProperty("hasPart");
  });

  it.skipIf(skip)("puts no text after the introduction into the feed or the site search", async () => {
    const { context } = await prepared();
    const res = (await rssLoader({ request: new Request("http://localhost/blog/rss.xml"), context, params: {} } as never)) as Response;
    const xml = await res.text();
    const item = xml.split("<item>").find((i) => i.includes(`/blog/${PREMIUM_SLUG}<`));
    expect(item).toBeTruthy();
    expect(item).toContain("<description>How big is an hour of 1080p?");
    expect(xml).not.toContain("Raw video is enormous");
    const { handle } = await prepared();
    // found by its title, not by words of its hidden part
    expect((await searchBlogArticles(handle.db, ["bitrates"])).map((h) => h.url)).toContain(`/blog/${PREMIUM_SLUG}`);
    expect((await searchBlogArticles(handle.db, ["enormous"])).map((h) => h.url)).not.toContain(`/blog/${PREMIUM_SLUG}`);
  });
});
