/** Pure helpers for the media tools: times, sizes, codec names and output file names. */
import { safeFileTitle } from "#common/file-names.ts";

/** "1:02:03.450", "2:05.000", "0:07.250": hours only when needed, milliseconds always. */
export function formatTime(seconds: number): string {
  const ms = Math.round(Math.max(0, seconds) * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = ((ms % 60_000) / 1000).toFixed(3).padStart(6, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** Reads "83.5", "1:23.5" or "0:01:23.5" as seconds; null for anything else. */
export function parseTime(input: string): number | null {
  const parts = input.trim().split(":");
  if (parts.length > 3 || parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) return null;
  if (parts.slice(0, -1).some((p) => p.includes("."))) return null;
  const nums = parts.map(Number);
  if (nums.slice(1).some((n) => n >= 60)) return null;
  return nums.reduce((total, n) => total * 60 + n, 0);
}

export function formatBitrate(bitsPerSecond: number | null | undefined): string {
  if (!bitsPerSecond || !Number.isFinite(bitsPerSecond)) return "unknown";
  if (bitsPerSecond >= 1_000_000) return `${(bitsPerSecond / 1_000_000).toFixed(2)} Mb/s`;
  return `${Math.round(bitsPerSecond / 1000)} kb/s`;
}

export function formatFileSize(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

const CODEC_NAMES: Record<string, string> = {
  avc: "H.264 (AVC)",
  hevc: "H.265 (HEVC)",
  vp8: "VP8",
  vp9: "VP9",
  av1: "AV1",
  prores: "ProRes",
  aac: "AAC",
  opus: "Opus",
  mp3: "MP3",
  vorbis: "Vorbis",
  flac: "FLAC",
  ac3: "AC-3 (Dolby Digital)",
  eac3: "E-AC-3 (Dolby Digital Plus)",
  dts: "DTS",
  ulaw: "G.711 μ-law",
  alaw: "G.711 A-law",
};

/** A readable codec name ("avc" → "H.264 (AVC)", "pcm-s16" → "PCM 16-bit"). */
export function codecName(codec: string | null): string {
  if (!codec) return "unknown codec";
  const pcm = /^pcm-([suf])(\d+)(be)?$/.exec(codec);
  if (pcm) return `PCM ${pcm[2]}-bit${pcm[1] === "f" ? " float" : pcm[1] === "u" ? " unsigned" : ""}${pcm[3] ? " big-endian" : ""}`;
  return CODEC_NAMES[codec] ?? codec;
}

/**
 * The name of a file a tool makes from the visitor's file: the original name without its
 * extension, made safe by the same rule as our download names, plus a suffix and extension
 * ("My clip.mov", " (trimmed)", "mp4" → "My clip (trimmed).mp4").
 */
export function outputFileName(inputName: string, suffix: string, extension: string): string {
  const base = safeFileTitle(inputName.replace(/\.[^.]{1,8}$/, "")) || "media";
  return `${base}${suffix}.${extension}`;
}

/**
 * Seconds left at a steady pace, or null while there is too little to go on (under 2 % or
 * under a second of work).
 */
export function estimateSecondsLeft(progress: number, elapsedMs: number): number | null {
  if (progress < 0.02 || elapsedMs < 1000 || progress >= 1) return progress >= 1 ? 0 : null;
  return Math.ceil(((elapsedMs / progress) * (1 - progress)) / 1000);
}

/** "about 12 s left", "about 2 min 5 s left". */
export function formatTimeLeft(seconds: number | null): string {
  if (seconds === null) return "estimating time left…";
  if (seconds < 60) return `about ${seconds} s left`;
  return `about ${Math.floor(seconds / 60)} min ${seconds % 60} s left`;
}

/** Evenly spaced times for a sheet of `count` frames, each in the middle of its slice. */
export function sheetTimes(durationSeconds: number, count: number, startSeconds = 0): number[] {
  const step = durationSeconds / count;
  return Array.from({ length: count }, (_, i) => startSeconds + step * (i + 0.5));
}
