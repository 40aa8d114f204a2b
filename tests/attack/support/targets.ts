import { readdirSync } from "node:fs";
import path from "node:path";
import { INFO_PAGES } from "../../e2e/support/pages.ts";
import { ROOT } from "./build.ts";

/**
 * What the site exposes, read from app/routes.ts and the route modules: page routes, the form
 * actions with their field names, and the query parameters the loaders read. Kept in one place
 * so every attack suite walks the same surface.
 */
export const PAGE_ROUTES = [
  "/",
  "/shorts-downloader",
  ...INFO_PAGES,
  "/search",
  "/blog",
  "/login",
  "/signup",
  "/forgot-password",
  "/reset-password",
  "/dashboard",
  "/premium",
  "/payment-success",
] as const;

/** Resource routes and host endpoints (not HTML pages). */
export const OTHER_GET_ROUTES = ["/blog/rss.xml", "/sitemap.xml", "/robots.txt", "/newsletter", "/healthz", "/readyz"] as const;

/** Query parameters the loaders read (search, blog filters, the home page's shared link, the newsletter outcome). */
export const QUERY_KEYS: Record<string, string[]> = {
  "/": ["url", "text"],
  "/shorts-downloader": ["url", "text"],
  "/search": ["q"],
  "/blog": ["q", "tag", "show", "newsletter"],
  "/login": ["returnTo", "notice"],
  "/signup": ["returnTo"],
  "/reset-password": ["token"],
  "/premium": ["plan", "checkout"],
  "/payment-success": ["session_id"],
};

/** The written articles (content/blog/*.md): their slugs are stable, unlike generated ones. */
export const WRITTEN_ARTICLE_SLUGS = readdirSync(path.join(ROOT, "content/blog"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => f.replace(/\.md$/, ""))
  .sort();

export const ARTICLE_SLUG = WRITTEN_ARTICLE_SLUGS[0]!;

/** Every form action and its fields (app/routes/*.tsx and the form components). */
export interface FormAction {
  path: string;
  fields: string[];
  /** a valid submission, for same-origin control cases */
  valid: (marker: string) => Record<string, string>;
  /** also accepts JSON bodies */
  json?: boolean;
}

export const FORM_ACTIONS: FormAction[] = [
  {
    path: "/contact-us",
    fields: ["name", "email", "subject", "message", "website"],
    valid: (m) => ({ name: `Ada ${m}`, email: `ada+${m}@example.test`, subject: "Hello", message: `A message ${m}`, website: "" }),
  },
  {
    path: "/supported-sites",
    fields: ["platformName", "email", "details", "website"],
    valid: (m) => ({ platformName: `Platform ${m}`, email: `req+${m}@example.test`, details: `details ${m}` }),
  },
  {
    path: "/newsletter",
    fields: ["email", "website"],
    valid: (m) => ({ email: `news+${m}@example.test` }),
    json: true,
  },
  {
    path: `/blog/${ARTICLE_SLUG}`,
    fields: ["intent", "formKey", "parentId", "name", "email", "content", "commentId", "reason", "image"],
    valid: (m) => ({ intent: "comment", formKey: "root", name: `Commenter ${m}`, email: `c+${m}@example.test`, content: `A comment ${m}` }),
  },
  {
    path: "/login",
    fields: ["email", "password", "returnTo"],
    valid: (m) => ({ email: `nobody+${m}@example.test`, password: "not-the-password" }),
  },
  {
    path: "/signup",
    fields: ["name", "email", "password", "returnTo"],
    valid: (m) => ({ name: `Ada ${m}`, email: `signup+${m}@example.test`, password: `long-enough-${m}` }),
  },
  { path: "/premium", fields: ["plan"], valid: () => ({ plan: "pro" }) },
  { path: "/forgot-password", fields: ["email"], valid: (m) => ({ email: `forgot+${m}@example.test` }) },
  { path: "/reset-password", fields: ["token", "password"], valid: (m) => ({ token: `unknown-${m}`, password: `long-enough-${m}` }) },
];

export const COMMENT_INTENTS = ["comment", "like", "report"] as const;

/** Links the mock platform (MOCKS=true) resolves, from the README. */
export const MOCK_LINKS = [
  "https://www.youtube.com/watch?v=vidfetchAll",
  "https://youtu.be/vidfetch720",
  "https://www.youtube.com/watch?v=vidfetchCap",
  "https://www.youtube.com/watch?v=vidfetchPrv",
  "https://media.example.test/files/sample-360p.mp4",
  "https://media.example.test/hls/master.m3u8",
] as const;

/** Pages a same-origin redirect may lead to (the newsletter's no-JavaScript return path). */
export function isOwnPagePath(pathname: string): boolean {
  if ((PAGE_ROUTES as readonly string[]).includes(pathname)) return true;
  return /^\/blog\/[a-z0-9][a-z0-9-]*$/.test(pathname);
}
