import { Writable } from "node:stream";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import type { AppLoadContext, EntryContext } from "react-router";
import { ServerRouter } from "react-router";

export const streamTimeout = 5_000;

const utf8 = new TextEncoder();

/** One chunk of the page's loader data, as React Router's `StreamTransfer` keeps it once read. */
type HandoffChunk = Promise<void> & { result?: { done: boolean; value: string } };

/**
 * Reads React Router's handoff stream (the page's loader data, encoded for the browser) to its
 * end before the render, and leaves it, whole, where its `StreamTransfer` looks before reading
 * the stream itself: the render then never waits, and React can render the document into one
 * string (docs/decisions/030). False, with the stream untouched, when the context is not shaped
 * as React Router 7.18 makes it: the caller then renders as a stream, as before.
 */
export async function readHandoff(context: EntryContext): Promise<boolean> {
  const stream = context.serverHandoffStream;
  if (!stream) return true;
  const meta = (context as { renderMeta?: { streamCache?: Record<number, HandoffChunk> } }).renderMeta;
  if (!meta || typeof meta !== "object" || meta.streamCache !== undefined || stream.locked) return false;
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let value = "";
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      value += decoder.decode(chunk.value, { stream: true });
    }
    value += decoder.decode();
  } finally {
    reader.releaseLock();
  }
  const whole: HandoffChunk = Promise.resolve();
  whole.result = { done: true, value };
  meta.streamCache = { 0: whole };
  return true;
}

/**
 * Renders the whole document before answering: the host reads every HTML page whole anyway
 * (its policy names the hashes of the page's inline scripts, and an anonymous page gets an ETag:
 * server/page-handler.ts), and every visitor, crawler or not, gets the complete document
 * (docs/decisions/028). With the loader data read first, nothing suspends, and React renders
 * into a string: a fifth less CPU per page than its stream renderer, which encodes every piece
 * of markup into bytes as it goes (docs/decisions/030).
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  if (await readHandoff(routerContext)) {
    // no nonce: the host allows this page's inline scripts by their hashes (docs/decisions/018)
    const html = renderToString(<ServerRouter context={routerContext} url={request.url} />);
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    // as bytes: a string body would be scanned whole for lone surrogates by the Response first
    return new Response(utf8.encode(`<!DOCTYPE html>${html}`), { headers: responseHeaders, status: responseStatusCode });
  }
  loadContext.logger.warn("the router's data handoff is not the one expected: rendering as a stream");
  return renderStreamed(request, responseStatusCode, responseHeaders, routerContext, loadContext);
}

/** React's stream renderer, into one buffer: for a router context `readHandoff` does not know. */
function renderStreamed(request: Request, responseStatusCode: number, responseHeaders: Headers, routerContext: EntryContext, loadContext: AppLoadContext) {
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
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} />, {
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
    });
  });
}
