import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext } from "react-router";
import { ServerRouter } from "react-router";

export const streamTimeout = 5_000;

/**
 * Renders the whole document into one buffer, then answers. The host reads every HTML page
 * whole before it sends it (its policy names the hashes of the page's inline scripts, and an
 * anonymous page gets an ETag: server/page-handler.ts), so streaming the shell first would
 * only add conversions between React's Node stream, a web stream and the buffer
 * (docs/decisions/028). Every visitor, crawler or not, gets the complete document.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000);
    const sink = new Writable({
      // React checks what write() returns: the sink never asks it to wait
      highWaterMark: Number.MAX_SAFE_INTEGER,
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeoutId);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
        callback();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      // no nonce: the host allows this page's inline scripts by their hashes (docs/decisions/018)
      <ServerRouter context={routerContext} url={request.url} />,
      {
        onAllReady() {
          pipe(sink);
        },
        onShellReady() {
          shellRendered = true;
        },
        onShellError(error: unknown) {
          clearTimeout(timeoutId);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.logger.error({ err: error }, "render error inside a Suspense boundary");
        },
      },
    );
  });
}
