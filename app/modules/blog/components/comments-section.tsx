import { Flag, ImagePlus, MessageSquare, Reply, ThumbsUp, X } from "#app/components/icons.ts";
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "#app/components/ui/button.tsx";
import { Input, Textarea } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { useHydrated } from "#app/lib/forms/use-hydrated.ts";
import type { PublicComment } from "../comments/types.ts";
import { COMMENT_MESSAGES, MAX_COMMENT_IMAGE_BYTES, MAX_COMMENT_LENGTH, MAX_EMAIL_LENGTH, MAX_NAME_LENGTH, messageText, type CommentMessage } from "../comments/messages.ts";
import { formatLongDate } from "../types.ts";

/** What the article route's action answers (also shown after a plain, JavaScript-free POST). */
export type CommentActionResult =
  | { intent: "comment"; formKey: string; ok: true; message: CommentMessage; values: { name: string; email: string } }
  | { intent: "comment"; formKey: string; ok: false; message: CommentMessage; field?: "image"; values: { name: string; email: string; content: string } }
  | { intent: "like"; commentId: string; ok: true; likes: number }
  | { intent: "like"; commentId: string; ok: false; message: CommentMessage }
  | { intent: "report"; commentId: string; ok: boolean; message: CommentMessage };

export const REPORT_MESSAGES = {
  reported: { title: "Comment reported", description: "Thank you. Our moderators will review this comment." },
  failed: { title: "Error", description: "This comment could not be reported. Please try again." },
} as const;

export function CommentsSection({ slug, comments, count, actionResult }: { slug: string; comments: PublicComment[]; count: number; actionResult?: CommentActionResult }) {
  return (
    <section aria-labelledby="comments-heading" className="mt-12 border-t border-slate-200 pt-10" data-testid="comments">
      <h2 id="comments-heading" className="flex items-center gap-2 text-2xl font-bold text-slate-900">
        <MessageSquare aria-hidden className="size-6" /> Comments ({count})
      </h2>
      <div className="mt-6 rounded-xl border border-slate-200 bg-slate-50 p-5">
        <h3 className="text-lg font-semibold text-slate-900">Leave a comment</h3>
        <p className="mt-1 text-sm text-slate-600">Your email is never published. Required fields are marked *.</p>
        <CommentForm slug={slug} formKey="root" withImage actionResult={actionResult} />
      </div>
      {comments.length === 0 ? (
        <p className="mt-8 text-slate-600">No comments yet. Be the first to share your thoughts.</p>
      ) : (
        <ol className="mt-8 space-y-6" data-testid="comment-list">
          {comments.map((c) => (
            <li key={c.id}>
              <CommentItem slug={slug} comment={c} actionResult={actionResult} />
              {c.replies.length ? (
                <ol className="mt-4 ml-6 space-y-4 border-l-2 border-slate-200 pl-4 sm:ml-10" aria-label={`Replies to ${c.name}`}>
                  {c.replies.map((r) => (
                    <li key={r.id}>
                      <CommentItem slug={slug} comment={r} isReply actionResult={actionResult} />
                    </li>
                  ))}
                </ol>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

const isNeedsVisitor = (m: CommentMessage) => m.title === COMMENT_MESSAGES.likeNeedsVisitor.title && m.description === COMMENT_MESSAGES.likeNeedsVisitor.description;

function CommentItem({ slug, comment: c, isReply = false, actionResult }: { slug: string; comment: PublicComment; isReply?: boolean; actionResult?: CommentActionResult }) {
  const like = useFetcher<CommentActionResult>({ key: `like-${c.id}` });
  const report = useFetcher<CommentActionResult>({ key: `report-${c.id}` });
  const likeResult = like.data?.intent === "like" ? like.data : actionResult?.intent === "like" && actionResult.commentId === c.id ? actionResult : undefined;
  const reportResult = report.data?.intent === "report" ? report.data : actionResult?.intent === "report" && actionResult.commentId === c.id ? actionResult : undefined;
  const liked = c.likedByMe || likeResult?.ok === true;
  const likes = likeResult?.ok ? likeResult.likes : like.state !== "idle" && !liked ? c.likes + 1 : c.likes;

  // A first-time reader has no visitor id until this answer gives one (the article page sets no
  // cookie, so it can be cached): the like is sent once more by itself, as the message would ask.
  const retriedLike = useRef(false);
  const retryLike = like.data?.intent === "like" && !like.data.ok && isNeedsVisitor(like.data.message) && !retriedLike.current;
  useEffect(() => {
    if (like.data?.intent !== "like" || like.data.ok) return;
    if (isNeedsVisitor(like.data.message) && !retriedLike.current) {
      retriedLike.current = true;
      like.submit({ intent: "like", commentId: c.id }, { method: "post", preventScrollReset: true });
      return;
    }
    toast.error(like.data.message.title, { description: like.data.message.description });
  }, [like.data]);

  useEffect(() => {
    if (report.data?.intent !== "report") return;
    const m = report.data.message;
    if (report.data.ok) toast.success(m.title, { description: m.description });
    else toast.error(m.title, { description: m.description });
  }, [report.data]);

  return (
    <article className="rounded-xl border border-slate-200 bg-white p-4" data-testid="comment" aria-label={`Comment by ${c.name}`}>
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold text-slate-900" data-testid="comment-name">
          {c.name}
        </p>
        <time dateTime={c.date} className="text-sm text-slate-500">
          {formatLongDate(c.date)}
        </time>
      </header>
      <p className="mt-2 whitespace-pre-wrap break-words text-slate-800" data-testid="comment-content">
        {c.content}
      </p>
      {c.imageUrl ? <img src={c.imageUrl} alt={`Image shared by ${c.name}`} loading="lazy" className="mt-3 max-h-80 rounded-lg border border-slate-200" data-testid="comment-image" /> : null}
      <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
        <like.Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="like" />
          <input type="hidden" name="commentId" value={c.id} />
          <Button type="submit" variant="ghost" size="sm" disabled={liked} aria-pressed={liked} data-testid="like-button">
            <ThumbsUp aria-hidden /> {liked ? "Liked" : "Like"} ({likes})
          </Button>
        </like.Form>
        {likeResult && !likeResult.ok && !retryLike && like.state === "idle" ? (
          <p role="status" className="text-sm text-destructive" data-testid="like-status">
            {messageText(likeResult.message)}
          </p>
        ) : null}
        {!isReply ? (
          <details className="group" data-testid="reply-toggle">
            <summary className="inline-flex h-9 cursor-pointer list-none items-center gap-2 rounded-md px-3 font-medium text-slate-700 hover:bg-slate-100">
              <Reply aria-hidden className="size-4" /> Reply
            </summary>
            <div className="mt-2 w-full min-w-[18rem] rounded-lg border border-slate-200 bg-slate-50 p-3 sm:min-w-[28rem]">
              <CommentForm slug={slug} formKey={`reply-${c.id}`} parentId={c.id} actionResult={actionResult} />
            </div>
          </details>
        ) : null}
        <report.Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="report" />
          <input type="hidden" name="commentId" value={c.id} />
          <Button type="submit" variant="ghost" size="sm" disabled={report.state !== "idle" || reportResult?.ok === true} data-testid="report-button">
            <Flag aria-hidden /> {reportResult?.ok ? "Reported" : "Report"}
          </Button>
        </report.Form>
      </div>
    </article>
  );
}

function CommentForm({ slug, formKey, parentId, withImage = false, actionResult }: { slug: string; formKey: string; parentId?: string; withImage?: boolean; actionResult?: CommentActionResult }) {
  const fetcher = useFetcher<CommentActionResult>({ key: `comment-${formKey}` });
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [localMessage, setLocalMessage] = useState<CommentMessage | null>(null);
  const busy = fetcher.state !== "idle";

  const own = (r: CommentActionResult | undefined) => (r?.intent === "comment" && r.formKey === formKey ? r : undefined);
  // the plain-POST result (no JavaScript) fills the form back in; a fetcher result is newer
  const result = own(fetcher.data) ?? own(actionResult);
  const values = result ? result.values : undefined;
  const shown = localMessage ?? result?.message ?? null;
  const isError = localMessage ? true : result ? !result.ok : false;

  const clearImage = () => {
    if (fileRef.current) fileRef.current.value = "";
    setPreview((old) => {
      if (old) URL.revokeObjectURL(old);
      return null;
    });
  };

  useEffect(() => {
    const r = own(fetcher.data);
    if (!r) return;
    if (r.ok) {
      toast.success(r.message.title, { description: r.message.description });
      // spec §4 "Comment form": fields cleared except name and email; image cleared
      const content = formRef.current?.elements.namedItem("content") as HTMLTextAreaElement | null;
      if (content) content.value = "";
      clearImage();
      formRef.current?.closest("details")?.removeAttribute("open");
    } else {
      toast.error(r.message.title, { description: r.message.description });
      if (r.field === "image") clearImage();
    }
  }, [fetcher.data]);

  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  function onFileChange(event: ChangeEvent<HTMLInputElement>) {
    setLocalMessage(null);
    const file = event.currentTarget.files?.[0];
    if (!file) return clearImage();
    // quick checks in the browser; the server decides from the file's content
    const problem = file.size > MAX_COMMENT_IMAGE_BYTES ? COMMENT_MESSAGES.imageTooLarge : !file.type.startsWith("image/") ? COMMENT_MESSAGES.invalidFileType : null;
    if (problem) {
      toast.error(problem.title, { description: problem.description });
      setLocalMessage(problem);
      clearImage();
      return;
    }
    setPreview((old) => {
      if (old) URL.revokeObjectURL(old);
      return URL.createObjectURL(file);
    });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    setLocalMessage(null);
    const data = new FormData(event.currentTarget);
    const missing = ["name", "email", "content"].some((k) => String(data.get(k) ?? "").trim() === "");
    if (missing) {
      event.preventDefault();
      toast.error(COMMENT_MESSAGES.missing.title, { description: COMMENT_MESSAGES.missing.description });
      setLocalMessage(COMMENT_MESSAGES.missing);
    }
  }

  const id = (n: string) => `${formKey}-${n}`;
  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action={`/blog/${slug}`}
      encType="multipart/form-data"
      preventScrollReset
      onSubmit={onSubmit}
      noValidate={hydrated}
      className="mt-4 space-y-4"
      data-testid={parentId ? "reply-form" : "comment-form"}
      aria-busy={busy}
    >
      <input type="hidden" name="intent" value="comment" />
      <input type="hidden" name="formKey" value={formKey} />
      {parentId ? <input type="hidden" name="parentId" value={parentId} /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor={id("name")}>Name *</Label>
          <Input id={id("name")} name="name" required maxLength={MAX_NAME_LENGTH} autoComplete="name" defaultValue={values?.name ?? ""} key={`name-${values?.name ?? ""}`} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={id("email")}>Email * (never published)</Label>
          <Input id={id("email")} name="email" type="email" required maxLength={MAX_EMAIL_LENGTH} autoComplete="email" defaultValue={values?.email ?? ""} key={`email-${values?.email ?? ""}`} />
        </div>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={id("content")}>{parentId ? "Reply *" : "Comment *"}</Label>
        <Textarea
          id={id("content")}
          name="content"
          required
          maxLength={MAX_COMMENT_LENGTH}
          rows={parentId ? 3 : 5}
          defaultValue={result && !result.ok ? result.values.content : ""}
          key={`content-${result && !result.ok ? "kept" : "fresh"}`}
        />
      </div>
      {withImage ? (
        <div className="space-y-2">
          <Label htmlFor={id("image")} className="inline-flex items-center gap-2">
            <ImagePlus aria-hidden className="size-4" /> Image (optional, under 2MB)
          </Label>
          <input
            ref={fileRef}
            id={id("image")}
            name="image"
            type="file"
            accept="image/*"
            onChange={onFileChange}
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-medium file:text-brand-700"
          />
          {preview ? (
            <div className="flex items-start gap-3">
              <img src={preview} alt="Selected image preview" className="max-h-40 rounded-lg border border-slate-200" />
              <Button type="button" variant="outline" size="sm" onClick={clearImage}>
                <X aria-hidden /> Remove image
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" disabled={busy} data-testid={parentId ? "reply-submit" : "comment-submit"}>
          {busy ? "Processing..." : parentId ? "Post Reply" : "Post Comment"}
        </Button>
        <p role="status" aria-live="polite" data-testid="comment-status" className={shown ? (isError ? "text-sm font-medium text-destructive" : "text-sm font-medium text-green-700") : "sr-only"}>
          {shown ? messageText(shown) : ""}
        </p>
      </div>
    </fetcher.Form>
  );
}
