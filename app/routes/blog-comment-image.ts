import type { Route } from "./+types/blog-comment-image";
import { getCommentImage } from "#app/modules/blog/comments/comments.server.ts";

/** GET /blog/comment-images/:id: a stored (re-encoded) comment image, while its comment is published. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const image = await getCommentImage(context.db, params.id);
  if (!image) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(new Uint8Array(image.bytes), {
    headers: {
      "Content-Type": image.contentType,
      "Content-Length": String(image.bytes.byteLength),
      "Cache-Control": "public, max-age=86400",
      "Content-Disposition": "inline",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
