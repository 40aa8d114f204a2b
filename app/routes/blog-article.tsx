import { ArrowLeft, CalendarDays, ChevronLeft, ChevronRight, Clock, User } from "#app/components/icons.ts";
import { useEffect } from "react";
import { data, Link, redirect, useNavigate, useNavigation } from "react-router";
import { toast } from "sonner";
import type { Route } from "./+types/blog-article";
import { AdSlot } from "#app/components/layout/ad-slot.tsx";
import { absoluteUrl, publicConfigFrom, seo } from "#app/lib/seo.ts";
import { getArticleBySlug, getRelatedArticles } from "#app/modules/blog/articles.server.ts";
import { authorSchema } from "#app/modules/blog/byline.ts";
import { RELATED_COUNT } from "#app/modules/blog/list-constants.ts";
import { hasControls } from "#app/modules/blog/clean-text.ts";
import { countComments, createComment, listComments, reportComment } from "#app/modules/blog/comments/comments.server.ts";
import { registerLike } from "#app/modules/blog/comments/like-request.server.ts";
import { COMMENT_MESSAGES, MAX_COMMENT_IMAGE_BYTES } from "#app/modules/blog/comments/messages.ts";
import { ArticleCard } from "#app/modules/blog/components/article-card.tsx";
import { CommentsSection, REPORT_MESSAGES, type CommentActionResult } from "#app/modules/blog/components/comments-section.tsx";
import { ShareButtons } from "#app/modules/blog/components/share-buttons.tsx";
import { ArticleTags } from "#app/modules/blog/components/tag-chips.tsx";
import { articleBodyFor, premiumJsonLd } from "#app/modules/blog/premium.ts";
import { premiumReaderFor } from "#app/modules/blog/premium-reader.server.ts";
import { PremiumBadge, PremiumBody } from "#app/modules/blog/components/premium-body.tsx";
import { articlePath } from "#app/modules/blog/types.ts";
import { ensureVisitorId, readVisitorId } from "#app/modules/blog/visitor.server.ts";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  // a slug with control characters (NUL, …) can name no article: not found, without a query
  if (hasControls(params.slug)) return data({ notFound: true as const }, { status: 404 });
  const found = await getArticleBySlug(context.db, params.slug);
  // spec: an unknown slug redirects to the list; a removed article is "Article Not Found"
  if (found.status === "unknown") throw redirect("/blog");
  if (found.status === "removed") return data({ notFound: true as const }, { status: 404 });
  const article = found.article;
  // Only a returning visitor's id is read (their own likes are marked); a first view sets no
  // cookie, so the page is the same for every new reader and can be cached (docs/decisions/018).
  // The id is given by the first form post (a like's answer is then "try again", which the
  // like button does by itself).
  const visitorId = readVisitorId(request, context.config.DOWNLOAD_SIGNING_SECRET);
  const [related, comments, commentCount, reader] = await Promise.all([
    getRelatedArticles(context.db, article, RELATED_COUNT),
    listComments(context.db, article.slug, visitorId),
    countComments(context.db, article.slug),
    // only a premium article asks who is reading: every other page stays the same for all
    article.premium ? premiumReaderFor(context, request) : null,
  ]);
  // a premium article's rest is in neither the loader data nor the HTML of a reader without the right
  const { contentHtml: _contentHtml, ...shown } = article;
  return data(
    {
      notFound: false as const,
      article: shown,
      body: articleBodyFor(article, reader ?? { entitled: false, signedIn: false }),
      related,
      comments,
      commentCount,
      pageUrl: absoluteUrl(context.publicConfig.publicUrl, article.canonical),
    },
    // the whole text is for this reader only; a visitor's introduction-only page may be cached as before
    reader?.entitled ? { headers: { "Cache-Control": PRIVATE_CACHE_CONTROL } } : undefined,
  );
}

const PRIVATE_CACHE_CONTROL = "private, no-store";

/** The loader's Cache-Control (a premium article's whole text) reaches the page's answer too. */
export const headers: Route.HeadersFunction = ({ loaderHeaders }): Record<string, string> => {
  const cacheControl = loaderHeaders.get("cache-control");
  return cacheControl ? { "cache-control": cacheControl } : {};
};

const isSecure = (publicUrl: string) => publicUrl.startsWith("https://");

/** Styles for the Markdown elements the shared .prose-page class leaves plain (tables, code, quotes, images). */
const BODY_EXTRAS =
  "[&_table]:my-5 [&_table]:w-full [&_table]:border-collapse [&_table]:text-sm [&_th]:border-b-2 [&_th]:border-slate-300 [&_th]:p-2 [&_th]:text-left [&_th]:font-semibold [&_th]:text-slate-900 [&_td]:border-b [&_td]:border-slate-200 [&_td]:p-2 [&_td]:align-top [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:text-sm [&_blockquote]:my-4 [&_blockquote]:border-l-4 [&_blockquote]:border-brand-200 [&_blockquote]:pl-4 [&_blockquote]:italic [&_img]:my-4 [&_img]:rounded-xl [&_strong]:text-slate-900";

/** Requests larger than this are refused unread: a 2 MB image plus the text fields fit easily. */
const MAX_REQUEST_BYTES = MAX_COMMENT_IMAGE_BYTES * 2;
const FORM_KEY = /^(root|reply-[0-9a-f-]{36})$/;

/** The comment, like and report forms post one of these; anything else (JSON, plain text, no body) is refused. */
const FORM_CONTENT_TYPE = /^\s*(multipart\/form-data|application\/x-www-form-urlencoded)\s*(;|$)/i;

export async function action({ params, request, context }: Route.ActionArgs) {
  if (hasControls(params.slug)) throw data(null, { status: 404 });
  const found = await getArticleBySlug(context.db, params.slug);
  if (found.status !== "found") throw data(null, { status: 404 });
  const slug = found.article.slug;
  // read before a new id is made: only a visitor the browser already had may like
  const existingVisitorId = readVisitorId(request, context.config.DOWNLOAD_SIGNING_SECRET);
  const { visitorId, setCookie } = ensureVisitorId(request, { secure: isSecure(context.publicConfig.publicUrl), secret: context.config.DOWNLOAD_SIGNING_SECRET });
  const reply = (body: CommentActionResult, status = 200, extra: Record<string, string> = {}) =>
    data(body, { status, headers: { ...(setCookie ? { "Set-Cookie": setCookie } : {}), ...extra } });
  const emptyValues = { name: "", email: "", content: "" };

  if (Number(request.headers.get("content-length") ?? 0) > MAX_REQUEST_BYTES) {
    return reply({ intent: "comment", formKey: "root", ok: false, field: "image", message: COMMENT_MESSAGES.imageTooLarge, values: emptyValues }, 413);
  }
  const unreadable = () => reply({ intent: "comment", formKey: "root", ok: false, message: COMMENT_MESSAGES.badRequest, values: emptyValues }, 400);
  if (!FORM_CONTENT_TYPE.test(request.headers.get("content-type") ?? "")) return unreadable();
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    // a body that does not parse as the form it claims to be (broken multipart boundary, …)
    return unreadable();
  }
  const text = (k: string) => {
    const v = form.get(k);
    return typeof v === "string" ? v : "";
  };
  const intent = text("intent");

  if (intent === "like") {
    const commentId = text("commentId");
    const res = await registerLike(context.db, { commentId, articleSlug: slug, existingVisitorId, ip: context.clientIp }, { limiter: context.blogLimiter });
    if (res.ok) return reply({ intent, commentId, ok: true, likes: res.likes });
    if (res.reason === "rate_limited") return reply({ intent, commentId, ok: false, message: res.message }, 429, { "Retry-After": String(res.retryAfterSeconds) });
    // no visitor id yet: the answer sets one, and the next click counts
    return reply({ intent, commentId, ok: false, message: res.message }, res.reason === "no_visitor" ? 409 : 404);
  }
  if (intent === "report") {
    const commentId = text("commentId");
    const ok = await reportComment(context.db, { commentId, articleSlug: slug, visitorId, reason: text("reason"), ip: context.clientIp });
    return reply({ intent, commentId, ok, message: ok ? REPORT_MESSAGES.reported : REPORT_MESSAGES.failed }, ok ? 200 : 404);
  }

  const formKey = FORM_KEY.test(text("formKey")) ? text("formKey") : "root";
  const values = { name: text("name"), email: text("email"), content: text("content") };
  const file = form.get("image");
  const image = file instanceof File && file.size > 0 ? file : null;
  try {
    const result = await createComment(
      context.db,
      {
        articleSlug: slug,
        ...values,
        parentId: text("parentId") || null,
        imageSize: image?.size ?? 0,
        // an oversized file is refused by its size without being read
        image: image ? (image.size > MAX_COMMENT_IMAGE_BYTES ? new Uint8Array(0) : new Uint8Array(await image.arrayBuffer())) : null,
      },
      { ffmpegPath: context.engine.mediaTools.ffmpeg, visitorId, ip: context.clientIp },
    );
    if (result.ok) return reply({ intent: "comment", formKey, ok: true, message: result.message, values: { name: values.name, email: values.email } });
    const failed: CommentActionResult = { intent: "comment", formKey, ok: false, message: result.message, field: result.field, values };
    // busy with other images: the same post can succeed shortly, and the client is told when
    if (result.retryAfterSeconds) return reply(failed, 503, { "Retry-After": String(result.retryAfterSeconds) });
    return reply(failed, 400);
  } catch (err) {
    context.logger.error({ err, slug }, "blog: storing a comment failed");
    return reply({ intent: "comment", formKey, ok: false, message: COMMENT_MESSAGES.error, values }, 500);
  }
}

export const meta: Route.MetaFunction = ({ matches, loaderData, params }) => {
  if (!loaderData || loaderData.notFound) {
    return seo(matches, { title: "Article Not Found", description: "This article is no longer available.", path: `/blog/${params.slug}`, noindex: true });
  }
  const a = loaderData.article;
  const cfg = publicConfigFrom(matches);
  const siteName = cfg?.siteName ?? "VidFetch";
  const base = cfg?.publicUrl ?? "http://localhost:3000";
  const url = absoluteUrl(base, a.canonical);
  const image = absoluteUrl(base, a.image);
  return seo(matches, {
    title: a.title,
    description: a.metaDescription,
    path: a.canonical,
    type: "article",
    image: a.image,
    keywords: a.keywords.includes(siteName) ? a.keywords : [...a.keywords, siteName],
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        headline: a.title,
        description: a.metaDescription,
        image: [image],
        datePublished: a.publishedAt,
        dateModified: a.modifiedDate,
        author: authorSchema(a.author, siteName),
        publisher: { "@type": "Organization", name: siteName, logo: { "@type": "ImageObject", url: absoluteUrl(base, "/logo.svg") } },
        mainEntityOfPage: { "@type": "WebPage", "@id": url },
        url,
        keywords: a.keywords.join(", "),
        articleSection: a.category,
        ...premiumJsonLd(a.premium),
      },
      {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        itemListElement: [
          { "@type": "ListItem", position: 1, name: "Home", item: absoluteUrl(base, "/") },
          { "@type": "ListItem", position: 2, name: "Blog", item: absoluteUrl(base, "/blog") },
          { "@type": "ListItem", position: 3, name: a.title, item: url },
        ],
      },
    ],
    extra: [
      { property: "article:published_time", content: a.publishedAt },
      { property: "article:modified_time", content: a.modifiedDate },
      { property: "article:author", content: a.author },
      { property: "article:section", content: a.category },
      ...a.tags.map((t) => ({ property: "article:tag", content: t })),
      { property: "og:image:width", content: "800" },
      { property: "og:image:height", content: "450" },
    ],
  });
};

export default function BlogArticle({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const switching = navigation.state === "loading" && navigation.location.pathname.startsWith("/blog/") && navigation.formMethod === undefined;
  if (loaderData.notFound) return <ArticleNotFound />;
  if (switching) return <ArticleSkeleton />;
  return <ArticleView data={loaderData} actionResult={actionData as CommentActionResult | undefined} />;
}

type Loaded = Extract<Route.ComponentProps["loaderData"], { notFound: false }>;

function ArticleView({ data: d, actionResult }: { data: Loaded; actionResult?: CommentActionResult }) {
  const a = d.article;
  // spec: previous and next links are the first two related articles
  const [prev, next] = d.related;
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <ol className="flex flex-wrap items-center gap-1">
          <li>
            <Link to="/" className="hover:text-brand-700 hover:underline">
              Home
            </Link>
          </li>
          <li aria-hidden>/</li>
          <li>
            <Link to="/blog" className="hover:text-brand-700 hover:underline">
              Blog
            </Link>
          </li>
          <li aria-hidden>/</li>
          <li aria-current="page" className="line-clamp-1 text-slate-900">
            {a.title}
          </li>
        </ol>
      </nav>
      <Link to="/blog" className="mt-4 inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline">
        <ArrowLeft aria-hidden className="size-4" /> Back to Blog
      </Link>

      <article className="mt-4">
        <header>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{a.title}</h1>
          <p className="mt-4 flex flex-wrap items-center gap-x-5 gap-y-2 text-sm text-slate-600">
            <span className="inline-flex items-center gap-1">
              <User aria-hidden className="size-4" /> {a.author}
            </span>
            <span className="inline-flex items-center gap-1">
              <CalendarDays aria-hidden className="size-4" /> <time dateTime={a.publishedAt}>{a.date}</time>
            </span>
            <span className="inline-flex items-center gap-1">
              <Clock aria-hidden className="size-4" /> {a.readTime}
            </span>
            {a.premium ? <PremiumBadge /> : null}
          </p>
          <div className="mt-4">
            <ArticleTags tags={a.tags} />
          </div>
          <img src={a.image} alt="" width={800} height={450} className="mt-6 aspect-video w-full rounded-2xl border border-slate-200 object-cover" data-testid="featured-image" />
          <div className="mt-6">
            <ShareButtons url={d.pageUrl} title={a.title} />
          </div>
        </header>

        <AdSlot placement="in-content" />
        {/* Sanitised on the server (Markdown → sanitize-html, or our own escaped templates); never visitor text. */}
        {d.body.kind === "free" ? (
          <div className={`prose-page mx-auto mt-6 ${BODY_EXTRAS}`} data-testid="article-body" dangerouslySetInnerHTML={{ __html: d.body.html }} />
        ) : (
          <PremiumBody body={d.body} slug={a.slug} className={`prose-page mx-auto mt-6 ${BODY_EXTRAS}`} />
        )}
        <AdSlot placement="in-content" />
      </article>

      {prev || next ? (
        <nav aria-label="More articles" className="mt-10 grid gap-4 sm:grid-cols-2">
          {prev ? (
            <Link to={articlePath(prev.slug)} className="rounded-xl border border-slate-200 p-4 hover:border-brand-500" data-testid="previous-article">
              <span className="inline-flex items-center gap-1 text-sm text-slate-600">
                <ChevronLeft aria-hidden className="size-4" /> Previous Article
              </span>
              <span className="mt-1 block font-semibold text-slate-900">{prev.title}</span>
            </Link>
          ) : (
            <span />
          )}
          {next ? (
            <Link to={articlePath(next.slug)} className="rounded-xl border border-slate-200 p-4 text-right hover:border-brand-500" data-testid="next-article">
              <span className="inline-flex items-center gap-1 text-sm text-slate-600">
                Next Article <ChevronRight aria-hidden className="size-4" />
              </span>
              <span className="mt-1 block font-semibold text-slate-900">{next.title}</span>
            </Link>
          ) : null}
        </nav>
      ) : null}

      {d.related.length ? (
        <section aria-labelledby="related-heading" className="mt-12">
          <h2 id="related-heading" className="text-2xl font-bold text-slate-900">
            You Might Also Like
          </h2>
          <div className="mt-6 grid gap-6 md:grid-cols-3" data-testid="related-articles">
            {d.related.map((r) => (
              <ArticleCard key={r.slug} article={r} imageSize="related" />
            ))}
          </div>
        </section>
      ) : null}

      <CommentsSection slug={a.slug} comments={d.comments} count={d.commentCount} actionResult={actionResult} />
    </div>
  );
}

function ArticleNotFound() {
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold text-slate-900">Article Not Found</h1>
      <p className="mt-4 text-slate-600">This article is no longer available.</p>
      <Link to="/blog" className="mt-8 inline-flex items-center gap-1 font-semibold text-brand-700 hover:underline">
        <ArrowLeft aria-hidden className="size-4" /> Back to Blog
      </Link>
    </section>
  );
}

/** Shown only while the next article is actually loading. */
function ArticleSkeleton() {
  return (
    <div className="mx-auto max-w-4xl animate-pulse px-4 py-8 sm:px-6" aria-busy="true" aria-label="Loading article">
      <div className="h-4 w-48 rounded bg-slate-200" />
      <div className="mt-6 h-10 w-3/4 rounded bg-slate-200" />
      <div className="mt-4 h-4 w-1/2 rounded bg-slate-200" />
      <div className="mt-6 aspect-video w-full rounded-2xl bg-slate-200" />
      <div className="mt-6 space-y-3">
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="h-4 rounded bg-slate-200" />
        ))}
      </div>
    </div>
  );
}

/** Spec §8 "Blog": "Error: Could not load the article", then back to the list. */
export function ErrorBoundary() {
  const navigate = useNavigate();
  useEffect(() => {
    toast.error("Error", { description: "Could not load the article" });
    navigate("/blog", { replace: true });
  }, [navigate]);
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center">
      <h1 className="text-2xl font-bold text-slate-900">Error: Could not load the article</h1>
      <Link to="/blog" className="mt-8 inline-flex items-center gap-1 font-semibold text-brand-700 hover:underline">
        <ArrowLeft aria-hidden className="size-4" /> Back to Blog
      </Link>
    </section>
  );
}
