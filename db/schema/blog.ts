import { sql } from "drizzle-orm";
import { boolean, customType, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (value) => value,
  // PGlite hands back a Uint8Array, node-postgres a Buffer: one shape for callers.
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Generated articles, created deterministically from a calendar day (UTC) and persisted so every
 * slug stays stable. `batchDay` + `seq` identify an article; re-running a day inserts nothing new.
 */
export const blogGeneratedArticles = pgTable(
  "blog_generated_articles",
  {
    id: integer("id").primaryKey(),
    slug: text("slug").notNull(),
    batchDay: text("batch_day").notNull(),
    seq: integer("seq").notNull(),
    title: text("title").notNull(),
    excerpt: text("excerpt").notNull(),
    metaDescription: text("meta_description").notNull(),
    contentHtml: text("content_html").notNull(),
    image: text("image").notNull(),
    author: text("author").notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull(),
    modifiedAt: timestamp("modified_at", { withTimezone: true }).notNull(),
    readMinutes: integer("read_minutes").notNull(),
    longForm: boolean("long_form").notNull(),
    tags: text("tags").array().notNull(),
    keywords: text("keywords").array().notNull(),
    category: text("category").notNull(),
    commentCount: integer("comment_count").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("blog_generated_articles_slug_idx").on(t.slug),
    uniqueIndex("blog_generated_articles_day_seq_idx").on(t.batchDay, t.seq),
    index("blog_generated_articles_published_idx").on(t.publishedAt),
  ],
);

/** Articles (local or generated) taken down: their page answers "Article Not Found" (404). */
export const blogArticleRemovals = pgTable("blog_article_removals", {
  slug: text("slug").primaryKey(),
  reason: text("reason").notNull().default(""),
  removedAt: timestamp("removed_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Comment images, re-encoded (metadata stripped) before they are stored. */
export const blogCommentImages = pgTable("blog_comment_images", {
  id: uuid("id").primaryKey().defaultRandom(),
  contentType: text("content_type").notNull(),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  bytes: bytea("bytes").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Visitor comments. The email is stored for moderation only and never published. */
export const blogComments = pgTable(
  "blog_comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    articleSlug: text("article_slug").notNull(),
    /** one level of replies: a reply's parent is always a top-level comment */
    parentId: uuid("parent_id").references((): AnyPgColumn => blogComments.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    content: text("content").notNull(),
    imageId: uuid("image_id").references(() => blogCommentImages.id, { onDelete: "set null" }),
    /** "approved" is shown; "pending", "rejected" and "hidden" (by an operator in /admin) are not */
    status: text("status").notNull().default("pending"),
    likes: integer("likes").notNull().default(0),
    visitorId: text("visitor_id"),
    ipHash: text("ip_hash"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index("blog_comments_article_idx").on(t.articleSlug, t.createdAt)],
);

/** One like per visitor per comment. */
export const blogCommentLikes = pgTable(
  "blog_comment_likes",
  {
    commentId: uuid("comment_id")
      .notNull()
      .references(() => blogComments.id, { onDelete: "cascade" }),
    visitorId: text("visitor_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.visitorId] })],
);

/** "Report" on a comment: kept for the moderators, one per visitor per comment. */
export const blogCommentReports = pgTable(
  "blog_comment_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    commentId: uuid("comment_id")
      .notNull()
      .references(() => blogComments.id, { onDelete: "cascade" }),
    visitorId: text("visitor_id").notNull(),
    reason: text("reason").notNull().default(""),
    ipHash: text("ip_hash"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("blog_comment_reports_once_idx").on(t.commentId, t.visitorId)],
);
