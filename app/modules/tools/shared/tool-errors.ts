/**
 * The media tools' error catalogue: one code per thing that can go wrong with a visitor's file,
 * each with the sentence the page shows. Thrown as ToolError, never as a bare string.
 */
export type ToolErrorCode =
  | "tool.not_media"
  | "tool.corrupt"
  | "tool.no_webcodecs"
  | "tool.cannot_decode"
  | "tool.cannot_encode"
  | "tool.no_video"
  | "tool.no_audio"
  | "tool.too_large"
  | "tool.bad_time"
  | "tool.bad_frame_time"
  | "tool.canceled"
  | "tool.save_dismissed"
  | "tool.save_failed"
  | "tool.failed";

export const TOOL_ERROR_MESSAGES: Record<ToolErrorCode, string> = {
  "tool.not_media": "This file is not a video or audio file this tool can read. Try an MP4, MOV, WEBM, MKV, MP3, M4A, OGG, FLAC or WAV file.",
  "tool.corrupt": "This file looks damaged or incomplete, so it could not be read to the end. Try the original file again.",
  "tool.no_webcodecs": "Your browser cannot process media files on this page (it lacks WebCodecs). Use a recent Chrome, Edge, Firefox or Safari.",
  "tool.cannot_decode": "Your browser cannot decode this file's codec. Try a recent Chrome or Edge, or convert the file with a desktop app first.",
  "tool.cannot_encode": "Your browser cannot encode this format. Pick another output format.",
  "tool.no_video": "This file has no video track, so there are no frames to grab.",
  "tool.no_audio": "This file has no audio track to convert.",
  "tool.too_large": "This file is too large to process in the browser.",
  "tool.bad_time": "Enter a start and end time inside the file, with the end after the start.",
  "tool.bad_frame_time": "Enter a time inside the file, between its start and its end.",
  "tool.canceled": "Canceled.",
  "tool.save_dismissed": "No file was chosen, so nothing was converted. Choose \"Convert and save to a file\" again and pick where to save the result.",
  "tool.save_failed": "The result could not be written to the file you chose (the disk may be full, or the browser lost permission to write it). Nothing was saved; try again or choose another place.",
  "tool.failed": "Something went wrong while processing this file.",
};

/**
 * Largest file the tools turn into a new file in memory (convert, cut): that result is assembled
 * in memory before the browser saves it, so past this a tab would run out of memory. A conversion
 * saved straight to a file the visitor picked (File System Access API, Chromium) streams to disk
 * and has no limit, nor has reading (media info, frame grabs): the file is read slice by slice.
 */
export const MAX_OUTPUT_SOURCE_BYTES = 2 * 1024 ** 3;

export const TOO_LARGE_TO_WRITE =
  "This file is over 2 GB. This browser keeps the result in memory until you save it, so files this large cannot be converted or cut here. In Chrome or Edge, the Video Converters page can convert them by writing the result straight to your disk. Media info and frame grabs work on files of any size.";

/** Shown on the converter, in a browser that can write to disk, when the file is over the in-memory limit. */
export const TOO_LARGE_FOR_MEMORY_NOTE =
  "This file is over 2 GB, too large to convert in memory. Use \"Convert and save to a file\": the result is written straight to your disk as it is made.";

export class ToolError extends Error {
  readonly code: ToolErrorCode;
  constructor(code: ToolErrorCode, message: string = TOOL_ERROR_MESSAGES[code]) {
    super(message);
    this.name = "ToolError";
    this.code = code;
  }
}

/** The message to show for anything a tool threw. */
export function toolErrorMessage(error: unknown): string {
  if (error instanceof ToolError) return error.message;
  return `${TOOL_ERROR_MESSAGES["tool.failed"]}${error instanceof Error && error.message ? ` (${error.message})` : ""}`;
}
