import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { articlePath, formatLongDate, type Article } from "./types.ts";

const day = z.preprocess(
  (v) => (v instanceof Date ? v.toISOString().slice(0, 10) : v),
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a YYYY-MM-DD date")
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), "must be a real date"),
);

const nonEmpty = z.string().trim().min(1);

/** The front matter every local article must carry (spec §3 "Blog article (full)"). */
export const localFrontMatterSchema = z
  .object({
    id: z.number().int().positive(),
    slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lowercase words joined by hyphens"),
    title: nonEmpty.max(120),
    metaDescription: nonEmpty.max(200),
    excerpt: nonEmpty.max(400),
    image: z
      .string()
      .regex(/^\/blog\/[a-z0-9/_.-]+\.(svg|png|jpe?g|webp)$/, "must be a self-hosted path under /blog/ (no third-party images)"),
    author: nonEmpty.max(80),
    date: day,
    modifiedDate: day,
    readTime: z.string().regex(/^\d{1,2} min read$/, 'must look like "7 min read"'),
    tags: z.array(nonEmpty.max(40)).min(1).max(8),
    keywords: z.array(nonEmpty.max(60)).min(1).max(30),
    /** the introduction is for everyone, the rest for Pro and Ultimate members */
    premium: z.boolean().optional(),
  })
  .strict()
  .refine((fm) => fm.modifiedDate >= fm.date, { message: "modifiedDate must not be before date", path: ["modifiedDate"] });

export type LocalFrontMatter = z.output<typeof localFrontMatterSchema>;

export class LocalArticleError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`content/blog/${file}: ${problems.join("; ")}`);
    this.name = "LocalArticleError";
  }
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

const markdown = new Marked({ gfm: true, breaks: false });

/**
 * The HTML allowed in article bodies. Raw HTML in Markdown passes through this too; scripts,
 * event handlers, iframes, styles and third-party images never reach the page.
 */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    "h2", "h3", "h4", "p", "br", "hr", "strong", "em", "b", "i", "del", "code", "pre", "blockquote",
    "ul", "ol", "li", "a", "img", "figure", "figcaption", "table", "thead", "tbody", "tr", "th", "td", "kbd", "abbr",
  ],
  allowedAttributes: {
    a: ["href", "title", "rel", "target"],
    img: ["src", "alt", "title", "width", "height", "loading"],
    th: ["align"],
    td: ["align"],
    abbr: ["title"],
  },
  allowedSchemes: ["https", "mailto"],
  // images: site-relative paths only, so the page never hot-links a third party
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  transformTags: {
    // an author's h1 would compete with the page title
    h1: "h2",
    a: (tagName, attribs) => {
      const href = attribs.href ?? "";
      if (/^https?:\/\//i.test(href)) return { tagName, attribs: { ...attribs, rel: "noopener noreferrer nofollow", target: "_blank" } };
      const { target: _target, ...rest } = attribs;
      return { tagName, attribs: rest };
    },
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: "lazy" } }),
  },
};

export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE);
}

export function renderMarkdown(body: string): string {
  return sanitizeArticleHtml(markdown.parse(body, { async: false }));
}

/** Parse one `content/blog/<slug>.md` file; throws LocalArticleError naming every problem. */
export function parseLocalArticle(file: string, raw: string): Article {
  const match = FRONT_MATTER.exec(raw.replace(/^\uFEFF/, ""));
  if (!match) throw new LocalArticleError(file, ["missing the --- front matter --- block"]);
  let data: unknown;
  try {
    data = parseYaml(match[1]!);
  } catch (err) {
    throw new LocalArticleError(file, [`front matter is not valid YAML: ${(err as Error).message}`]);
  }
  const result = localFrontMatterSchema.safeParse(data);
  if (!result.success) {
    throw new LocalArticleError(
      file,
      result.error.issues.map((i) => `${i.path.join(".") || "front matter"}: ${i.message}`),
    );
  }
  const fm = result.data;
  const expectedFile = `${fm.slug}.md`;
  if (file !== expectedFile) throw new LocalArticleError(file, [`slug "${fm.slug}" does not match the file name (expected ${expectedFile})`]);
  const body = match[2]!.trim();
  if (!body) throw new LocalArticleError(file, ["the article body is empty"]);
  const publishedAt = `${fm.date}T00:00:00.000Z`;
  return {
    id: fm.id,
    slug: fm.slug,
    title: fm.title,
    excerpt: fm.excerpt,
    image: fm.image,
    author: fm.author,
    publishedAt,
    date: formatLongDate(publishedAt),
    readTime: fm.readTime,
    tags: fm.tags,
    source: "local",
    premium: fm.premium ?? false,
    metaDescription: fm.metaDescription,
    modifiedDate: `${fm.modifiedDate}T00:00:00.000Z`,
    keywords: fm.keywords,
    canonical: articlePath(fm.slug),
    contentHtml: renderMarkdown(body),
    category: fm.tags[0]!,
    commentCount: 0,
  };
}

/** Parse a whole folder's worth of files, checking ids and slugs are unique. */
export function parseLocalArticles(files: Record<string, string>): Article[] {
  const articles: Article[] = [];
  const problems: string[] = [];
  for (const [file, raw] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) {
    try {
      articles.push(parseLocalArticle(file, raw));
    } catch (err) {
      if (err instanceof LocalArticleError) problems.push(err.message);
      else throw err;
    }
  }
  const seenIds = new Map<number, string>();
  for (const a of articles) {
    const other = seenIds.get(a.id);
    if (other) problems.push(`content/blog: id ${a.id} is used by both ${other} and ${a.slug}`);
    seenIds.set(a.id, a.slug);
  }
  if (problems.length) throw new LocalArticleError("*", problems);
  return articles;
}
