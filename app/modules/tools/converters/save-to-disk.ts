/**
 * Saving a conversion straight to disk with the File System Access API (Chromium browsers):
 * the visitor picks where the file goes first, then the media worker streams the result into it
 * (media-io.ts, `runConversion`), so its size is not limited by memory.
 */
import { ToolError } from "../shared/tool-errors.ts";
import type { TargetSpec } from "./convert-targets.ts";

interface SaveFilePickerOptions {
  suggestedName?: string;
  types?: { description?: string; accept: Record<string, string[]> }[];
  excludeAcceptAllOption?: boolean;
}

type SavePickerWindow = Window & { showSaveFilePicker?: (options?: SaveFilePickerOptions) => Promise<FileSystemFileHandle> };

/** Whether this browser can write a file the visitor picks (Chrome, Edge, Opera; not Firefox or Safari). */
export function canSaveToDisk(): boolean {
  return typeof window !== "undefined" && typeof (window as SavePickerWindow).showSaveFilePicker === "function";
}

/** The MIME type the save dialog filters on, by output format. */
const MIME_TYPES: Record<TargetSpec["id"], string> = {
  mp4: "video/mp4",
  webm: "video/webm",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  wav: "audio/wav",
  gif: "image/gif",
  webp: "image/webp",
};

/**
 * Asks where to save the result. Must run straight from a click (the browser requires it).
 * A dismissed dialog becomes `tool.save_dismissed`, a refusal `tool.save_failed`.
 */
export async function pickSaveFile(suggestedName: string, target: TargetSpec): Promise<FileSystemFileHandle> {
  const picker = (window as SavePickerWindow).showSaveFilePicker;
  if (!picker) throw new ToolError("tool.save_failed");
  try {
    return await picker.call(window, {
      suggestedName,
      types: [{ description: target.label, accept: { [MIME_TYPES[target.id]]: [`.${target.extension}`] } }],
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === "AbortError") throw new ToolError("tool.save_dismissed");
    throw new ToolError("tool.save_failed", `The browser did not let this page save a file${e instanceof Error && e.message ? ` (${e.message})` : ""}. Use "Convert" instead, then save the result.`);
  }
}
