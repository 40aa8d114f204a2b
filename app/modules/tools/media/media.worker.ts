/// <reference lib="webworker" />
/**
 * The tools' media worker: mediabunny, the MP3 encoder and the GIF quantizer run here, so a long
 * conversion never blocks the page. It gets the visitor's File (a handle, read lazily) and
 * answers with results and progress; it makes no network request.
 */
import { convertMedia } from "../converters/convert-media.ts";
import { findTarget } from "../converters/convert-targets.ts";
import { ToolError } from "../shared/tool-errors.ts";
import { grabFrame, readMediaInfo, removeIfEmpty, thumbnailSheet, trimMedia, type RunOptions } from "./media-io.ts";
import type { WorkerRequest, WorkerResponse } from "./media-worker-protocol.ts";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const running = new Map<number, AbortController>();
const reply = (msg: WorkerResponse) => scope.postMessage(msg);

async function handle(req: Exclude<WorkerRequest, { op: "cancel" }>, run: RunOptions): Promise<unknown> {
  switch (req.op) {
    case "info":
      return readMediaInfo(req.args.file);
    case "trim":
      return trimMedia(req.args.file, req.args.start, req.args.end, req.args.exact, run);
    case "frame":
      return grabFrame(req.args.file, req.args.time, req.args.type);
    case "sheet":
      return thumbnailSheet(req.args.file, req.args.opts, run);
    case "convert": {
      const target = findTarget(req.args.target);
      const { saveTo } = req.args;
      try {
        if (!target) throw new ToolError("tool.failed");
        return await convertMedia(req.args.file, target, req.args.settings, run, saveTo);
      } catch (e) {
        // refused before a byte was written (a codec, a time): the picked file stays empty, remove it
        if (saveTo) await removeIfEmpty(saveTo);
        throw e;
      }
    }
  }
}

scope.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const req = event.data;
  if (req.op === "cancel") {
    running.get(req.id)?.abort();
    return;
  }
  const ac = new AbortController();
  running.set(req.id, ac);
  let last = 0;
  const onProgress = (progress: number) => {
    // at most ~20 progress messages a second
    const now = performance.now();
    if (now - last < 50 && progress < 1) return;
    last = now;
    reply({ id: req.id, kind: "progress", progress });
  };
  try {
    const result = await handle(req, { signal: ac.signal, onProgress });
    reply({ id: req.id, kind: "done", result });
  } catch (e) {
    const err = e instanceof ToolError ? e : null;
    // unexpected errors keep their text for the visitor's bug report, under the generic code
    reply({ id: req.id, kind: "error", code: err?.code ?? "tool.failed", message: err?.message ?? (e instanceof Error ? e.message : String(e)) });
  } finally {
    running.delete(req.id);
  }
};
