/** Article shapes shared by the server loaders and the blog UI (no server imports here). */

export type ArticleSource = "local" | "generated";

/** What lists, cards, feeds and search need. */
export interface ArticleSummary {
  id: number;
  slug: string;
  title: string;
  excerpt: string;
  /** site-relative path of the 800×450 cover */
  image: string;
  author: string;
  /** ISO 8601 timestamp of publication */
  publishedAt: string;
  /** long US date, e.g. "November 21, 2026" (spec: generated article date) */
  date: string;
  /** e.g. "7 min read" */
  readTime: string;
  tags: string[];
  source: ArticleSource;
  /** the introduction is for everyone, the rest for holders of the premiumArticles right (premium.ts) */
  premium: boolean;
}

/** Spec §3 "Blog article (full)" plus the generated article's extra fields. */
export interface Article extends ArticleSummary {
  metaDescription: string;
  /** ISO 8601 */
  modifiedDate: string;
  keywords: string[];
  /** site-relative canonical path, /blog/{slug} */
  canonical: string;
  /** sanitised HTML */
  contentHtml: string;
  category: string;
  commentCount: number;
}

const LONG_DATE = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/** Long US date in UTC, so the server and the browser print the same text. */
export function formatLongDate(iso: string | Date): string {
  return LONG_DATE.format(typeof iso === "string" ? new Date(iso) : iso);
}

export function readTimeLabel(minutes: number): string {
  return `${minutes} min read`;
}

export function articlePath(slug: string): `/blog/${string}` {
  return `/blog/${slug}`;
}
