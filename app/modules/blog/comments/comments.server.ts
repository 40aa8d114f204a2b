import { createHash } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "#db/client.ts";
import { blogCommentImages, blogCommentLikes, blogCommentReports, blogComments } from "#db/schema/blog.ts";
import { stripControls, stripControlsKeepLines } from "../clean-text.ts";
import { COMMENT_MESSAGES, MAX_COMMENT_IMAGE_BYTES, MAX_COMMENT_LENGTH, MAX_EMAIL_LENGTH, MAX_NAME_LENGTH, type CommentMessage } from "./messages.ts";
import { IMAGE_RETRY_AFTER_SECONDS, processCommentImage, type ImageRefusal, type ProcessImageDeps } from "./process-image.server.ts";
import type { PublicComment } from "./types.ts";
import { findBlockedWord } from "./word-filter.ts";

export type { PublicComment };

export function commentImageUrl(id: string): string {
  return `/blog/comment-images/${id}`;
}

export function hashIp(ip: string): string {
  return createHash("sha256").update(`vidfetch-comments:${ip}`).digest("hex").slice(0, 32);
}

export interface NewCommentInput {
  articleSlug: string;
  name: string;
  email: string;
  content: string;
  parentId?: string | null;
  /** the uploaded file, if any: bytes as sent (the claimed type is ignored) */
  image?: Uint8Array | null;
  /** its size as announced, so a huge file is refused before being read */
  imageSize?: number;
}

export type CreateCommentResult =
  | { ok: true; comment: PublicComment; message: CommentMessage }
  /** `retryAfterSeconds`: refused only because the server is busy; the same post may succeed later */
  | { ok: false; message: CommentMessage; field?: "image"; retryAfterSeconds?: number };

/** What the visitor is told about an image that was not accepted: the real reason, never a guess. */
export function imageRefusalMessage(refusal: ImageRefusal): CommentMessage {
  switch (refusal.reason) {
    case "too_large":
      return COMMENT_MESSAGES.imageTooLarge;
    case "not_an_image":
      return COMMENT_MESSAGES.invalidFileType;
    case "too_many_pixels":
      return COMMENT_MESSAGES.imagePixels(refusal.width, refusal.height);
    case "busy":
      return COMMENT_MESSAGES.imageBusy;
    case "timeout":
      return COMMENT_MESSAGES.imageTimeout;
    case "failed":
      return COMMENT_MESSAGES.imageFailed;
  }
}

const emailShape = z.email();
const uuidShape = z.uuid();

/**
 * The moderation step. Every check that can reject a comment has already run when this is
 * called (required fields, word filter, image checks), so it approves; a manual review queue
 * would return "pending" here and the comment would stay hidden until approved.
 */
export function moderateComment(_input: { name: string; content: string; hasImage: boolean }): "approved" | "pending" {
  return "approved";
}

/** Validate, moderate and store a comment or a one-level reply. */
export async function createComment(
  db: Database,
  input: NewCommentInput,
  deps: { ffmpegPath: string; visitorId: string | null; ip: string; imageQueue?: ProcessImageDeps["queue"] },
): Promise<CreateCommentResult> {
  // NUL would fail the insert, other controls are noise; line breaks stay in the text
  const name = stripControls(input.name).trim();
  const email = stripControls(input.email).trim();
  const content = stripControlsKeepLines(input.content).trim();
  if (!name || !email || !content) return { ok: false, message: COMMENT_MESSAGES.missing };
  if (name.length > MAX_NAME_LENGTH || email.length > MAX_EMAIL_LENGTH || !emailShape.safeParse(email).success || content.length > MAX_COMMENT_LENGTH) {
    return { ok: false, message: COMMENT_MESSAGES.missing };
  }
  const blocked = findBlockedWord(name, content);
  if (blocked) return { ok: false, message: COMMENT_MESSAGES.rejected(blocked) };

  let parentId: string | null = null;
  if (input.parentId) {
    if (!uuidShape.safeParse(input.parentId).success) return { ok: false, message: COMMENT_MESSAGES.error };
    const [parent] = await db
      .select({ id: blogComments.id, parentId: blogComments.parentId, slug: blogComments.articleSlug, status: blogComments.status })
      .from(blogComments)
      .where(eq(blogComments.id, input.parentId))
      .limit(1);
    if (!parent || parent.slug !== input.articleSlug || parent.status !== "approved") return { ok: false, message: COMMENT_MESSAGES.error };
    // one level only: a reply to a reply joins the same thread
    parentId = parent.parentId ?? parent.id;
  }

  let image: { contentType: string; bytes: Buffer; width: number; height: number } | null = null;
  if (input.image && (input.image.byteLength > 0 || (input.imageSize ?? 0) > 0)) {
    if ((input.imageSize ?? 0) > MAX_COMMENT_IMAGE_BYTES || input.image.byteLength > MAX_COMMENT_IMAGE_BYTES) {
      return { ok: false, message: COMMENT_MESSAGES.imageTooLarge, field: "image" };
    }
    const processed = await processCommentImage(input.image, { ffmpegPath: deps.ffmpegPath, queue: deps.imageQueue, client: deps.ip });
    if (!processed.ok) {
      const refused = { ok: false as const, message: imageRefusalMessage(processed), field: "image" as const };
      return processed.reason === "busy" ? { ...refused, retryAfterSeconds: IMAGE_RETRY_AFTER_SECONDS } : refused;
    }
    image = processed;
  }

  const status = moderateComment({ name, content, hasImage: Boolean(image) });
  const row = await db.transaction(async (tx) => {
    let imageId: string | null = null;
    if (image) {
      const [img] = await tx.insert(blogCommentImages).values(image).returning({ id: blogCommentImages.id });
      imageId = img!.id;
    }
    const [c] = await tx
      .insert(blogComments)
      .values({ articleSlug: input.articleSlug, parentId, name, email, content, imageId, status, visitorId: deps.visitorId, ipHash: hashIp(deps.ip) })
      .returning();
    return c!;
  });
  return {
    ok: true,
    message: COMMENT_MESSAGES.submitted,
    comment: {
      id: row.id,
      name: row.name,
      content: row.content,
      date: row.createdAt.toISOString(),
      likes: 0,
      likedByMe: false,
      imageUrl: row.imageId ? commentImageUrl(row.imageId) : null,
      replies: [],
    },
  };
}

/** Approved comments of an article, newest thread first, replies oldest first. */
export async function listComments(db: Database, articleSlug: string, visitorId: string | null): Promise<PublicComment[]> {
  const rows = await db
    .select({
      id: blogComments.id,
      parentId: blogComments.parentId,
      name: blogComments.name,
      content: blogComments.content,
      createdAt: blogComments.createdAt,
      likes: blogComments.likes,
      imageId: blogComments.imageId,
    })
    .from(blogComments)
    .where(and(eq(blogComments.articleSlug, articleSlug), eq(blogComments.status, "approved")))
    .orderBy(asc(blogComments.createdAt), asc(blogComments.id))
    .limit(1000);
  const liked = new Set<string>();
  if (visitorId && rows.length) {
    const mine = await db
      .select({ id: blogCommentLikes.commentId })
      .from(blogCommentLikes)
      .where(and(eq(blogCommentLikes.visitorId, visitorId), inArray(blogCommentLikes.commentId, rows.map((r) => r.id))));
    for (const m of mine) liked.add(m.id);
  }
  const toPublic = (r: (typeof rows)[number]): PublicComment => ({
    id: r.id,
    name: r.name,
    content: r.content,
    date: r.createdAt.toISOString(),
    likes: r.likes,
    likedByMe: liked.has(r.id),
    imageUrl: r.imageId ? commentImageUrl(r.imageId) : null,
    replies: [],
  });
  const top = new Map<string, PublicComment>();
  for (const r of rows) if (!r.parentId) top.set(r.id, toPublic(r));
  for (const r of rows) if (r.parentId) top.get(r.parentId)?.replies.push(toPublic(r));
  return [...top.values()].reverse();
}

export async function countComments(db: Database, articleSlug: string): Promise<number> {
  return db.$count(blogComments, and(eq(blogComments.articleSlug, articleSlug), eq(blogComments.status, "approved")));
}

async function findApproved(db: Database, commentId: string, articleSlug: string) {
  if (!uuidShape.safeParse(commentId).success) return null;
  const [c] = await db
    .select({ id: blogComments.id })
    .from(blogComments)
    .where(and(eq(blogComments.id, commentId), eq(blogComments.articleSlug, articleSlug), eq(blogComments.status, "approved")))
    .limit(1);
  return c ?? null;
}

/** A like counts once per visitor per comment; repeating it changes nothing. */
export async function likeComment(db: Database, input: { commentId: string; articleSlug: string; visitorId: string }): Promise<{ ok: boolean; likes: number }> {
  if (!(await findApproved(db, input.commentId, input.articleSlug))) return { ok: false, likes: 0 };
  return db.transaction(async (tx) => {
    const inserted = await tx.insert(blogCommentLikes).values({ commentId: input.commentId, visitorId: input.visitorId }).onConflictDoNothing().returning();
    const [row] = inserted.length
      ? await tx
          .update(blogComments)
          .set({ likes: sql`${blogComments.likes} + 1` })
          .where(eq(blogComments.id, input.commentId))
          .returning({ likes: blogComments.likes })
      : await tx.select({ likes: blogComments.likes }).from(blogComments).where(eq(blogComments.id, input.commentId));
    return { ok: true, likes: row?.likes ?? 0 };
  });
}

/** Store a report for the moderators (once per visitor per comment). */
export async function reportComment(db: Database, input: { commentId: string; articleSlug: string; visitorId: string; reason?: string; ip: string }): Promise<boolean> {
  if (!(await findApproved(db, input.commentId, input.articleSlug))) return false;
  await db
    .insert(blogCommentReports)
    .values({ commentId: input.commentId, visitorId: input.visitorId, reason: stripControlsKeepLines(input.reason ?? "").trim().slice(0, 500), ipHash: hashIp(input.ip) })
    .onConflictDoNothing();
  return true;
}

/** A stored image, only while its comment is published. */
export async function getCommentImage(db: Database, id: string): Promise<{ contentType: string; bytes: Buffer } | null> {
  if (!uuidShape.safeParse(id).success) return null;
  const [row] = await db
    .select({ contentType: blogCommentImages.contentType, bytes: blogCommentImages.bytes })
    .from(blogCommentImages)
    .innerJoin(blogComments, eq(blogComments.imageId, blogCommentImages.id))
    .where(and(eq(blogCommentImages.id, id), eq(blogComments.status, "approved")))
    .limit(1);
  return row ?? null;
}
