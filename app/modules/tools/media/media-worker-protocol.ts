/** Messages between the tools pages and their media worker (media.worker.ts). */
import type { ConvertSettings } from "../converters/convert-media.ts";
import type { TargetId } from "../converters/convert-targets.ts";
import type { ToolErrorCode } from "../shared/tool-errors.ts";
import type { FrameResult, MediaInfo, SheetOptions, TrimResult, Written } from "./media-io.ts";

export interface MediaOps {
  info: { args: { file: File }; result: MediaInfo };
  trim: { args: { file: File; start: number; end: number; exact: boolean }; result: TrimResult };
  frame: { args: { file: File; time: number; type: "image/png" | "image/jpeg" }; result: FrameResult };
  sheet: { args: { file: File; opts: SheetOptions }; result: FrameResult };
  /** `saveTo`: a file the visitor picked (a handle, not bytes); the result is streamed into it */
  convert: { args: { file: File; target: TargetId; settings: ConvertSettings; saveTo?: FileSystemFileHandle }; result: Written };
}

export type MediaOp = keyof MediaOps;

export type WorkerRequest =
  | { [K in MediaOp]: { id: number; op: K; args: MediaOps[K]["args"] } }[MediaOp]
  | { id: number; op: "cancel" };

export type WorkerResponse =
  | { id: number; kind: "progress"; progress: number }
  | { id: number; kind: "done"; result: unknown }
  | { id: number; kind: "error"; code: ToolErrorCode; message: string };
