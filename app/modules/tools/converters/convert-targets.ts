/** The converter's output formats and settings: pure data, shared by the page and the worker code. */

export type TargetId = "mp4" | "webm" | "mp3" | "m4a" | "wav" | "gif" | "webp";

export interface TargetSpec {
  id: TargetId;
  label: string;
  extension: string;
  /** what the browser must be able to encode, in words */
  codecs: string;
  /** false: audio only (the video track is dropped) */
  video: boolean;
  /** true: a clip from a chosen range (animated images) */
  needsRange: boolean;
}

export const TARGETS: TargetSpec[] = [
  { id: "mp4", label: "MP4 (H.264 + AAC)", extension: "mp4", codecs: "H.264 video and AAC audio", video: true, needsRange: false },
  { id: "webm", label: "WEBM (VP9 + Opus)", extension: "webm", codecs: "VP9 video and Opus audio", video: true, needsRange: false },
  { id: "mp3", label: "MP3 audio", extension: "mp3", codecs: "MP3 audio", video: false, needsRange: false },
  { id: "m4a", label: "M4A audio (AAC)", extension: "m4a", codecs: "AAC audio", video: false, needsRange: false },
  { id: "wav", label: "WAV audio (PCM)", extension: "wav", codecs: "PCM audio", video: false, needsRange: false },
  { id: "gif", label: "Animated GIF", extension: "gif", codecs: "GIF frames", video: true, needsRange: true },
  { id: "webp", label: "Animated WebP", extension: "webp", codecs: "WebP images", video: true, needsRange: true },
];

export function findTarget(id: string): TargetSpec | undefined {
  return TARGETS.find((t) => t.id === id);
}

/** Output heights offered; "source" keeps the original size (the converter never upscales). */
export const HEIGHTS = ["source", "1080", "720", "480", "360", "240"] as const;
export type HeightChoice = (typeof HEIGHTS)[number];

export const QUALITIES = ["low", "medium", "high"] as const;
export type QualityChoice = (typeof QUALITIES)[number];

/** MP3 and AAC bitrates per quality choice (bits per second). */
export const AUDIO_BITRATES: Record<QualityChoice, number> = { low: 96_000, medium: 160_000, high: 256_000 };

/** Longest animated GIF or WebP: every frame is kept in memory and a GIF grows fast. */
export const MAX_ANIMATION_SECONDS = 30;
export const GIF_FRAME_RATES = [5, 10, 15] as const;
export const GIF_WIDTHS = [240, 320, 480, 640] as const;

/** The browser's WebP encoder quality (0 to 1) for each quality choice of an animated WebP. */
export const WEBP_QUALITY: Record<QualityChoice, number> = { low: 0.5, medium: 0.75, high: 0.9 };

/** The message for a format this browser cannot encode, naming what it lacks. */
export function cannotEncodeMessage(target: TargetSpec): string {
  return `This browser cannot encode ${target.codecs}, so ${target.label} is not available here. Pick another format (WEBM and WAV work in every browser with WebCodecs; MP4 needs Chrome or Edge on Windows or macOS, or Safari).`;
}

/** Output size for a height choice: never larger than the source, even numbers for the encoders. */
export function outputSize(source: { width: number; height: number }, choice: HeightChoice): { width: number; height: number } {
  if (choice === "source" || Number(choice) >= source.height) return { width: source.width, height: source.height };
  const height = Number(choice);
  const width = Math.round((source.width * height) / source.height / 2) * 2;
  return { width, height };
}
