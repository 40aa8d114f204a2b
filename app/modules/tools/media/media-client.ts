/**
 * The page side of the media worker: one worker per page, started on first use, with calls that
 * report progress and can be canceled through an AbortSignal.
 */
import { ToolError, TOOL_ERROR_MESSAGES } from "../shared/tool-errors.ts";
import type { MediaOp, MediaOps, WorkerRequest, WorkerResponse } from "./media-worker-protocol.ts";

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  onProgress?: (p: number) => void;
}

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();

function failAll(message: string) {
  for (const p of pending.values()) p.reject(new ToolError("tool.failed", message));
  pending.clear();
  worker?.terminate();
  worker = null;
}

function getWorker(): Worker {
  if (worker) return worker;
  if (typeof VideoDecoder === "undefined" || typeof AudioDecoder === "undefined") throw new ToolError("tool.no_webcodecs");
  worker = new Worker(new URL("./media.worker.ts", import.meta.url), { type: "module", name: "media-tools" });
  worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
    const msg = event.data;
    const p = pending.get(msg.id);
    if (!p) return;
    if (msg.kind === "progress") {
      p.onProgress?.(msg.progress);
      return;
    }
    pending.delete(msg.id);
    if (msg.kind === "done") p.resolve(msg.result);
    else if (msg.code === "tool.failed") p.reject(new ToolError("tool.failed", `${TOOL_ERROR_MESSAGES["tool.failed"]} (${msg.message})`));
    else p.reject(new ToolError(msg.code, msg.message));
  };
  // a worker that fails to load or crashes (out of memory) takes its calls with it
  worker.onerror = (event) => {
    event.preventDefault();
    failAll(`${TOOL_ERROR_MESSAGES["tool.failed"]} The media engine stopped${event.message ? `: ${event.message}` : ""}. Reload the page and try again.`);
  };
  return worker;
}

export function callMedia<K extends MediaOp>(
  op: K,
  args: MediaOps[K]["args"],
  opts: { signal?: AbortSignal; onProgress?: (p: number) => void } = {},
): Promise<MediaOps[K]["result"]> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new ToolError("tool.canceled"));
    const w = getWorker();
    const id = nextId++;
    pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress: opts.onProgress });
    opts.signal?.addEventListener(
      "abort",
      () => {
        w.postMessage({ id, op: "cancel" } satisfies WorkerRequest);
        // the worker answers with a "canceled" error; reject now so the page is free at once
        pending.delete(id);
        reject(new ToolError("tool.canceled"));
      },
      { once: true },
    );
    w.postMessage({ id, op, args } as WorkerRequest);
  });
}
