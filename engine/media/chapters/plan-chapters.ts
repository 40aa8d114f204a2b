/**
 * Chapters in a format's plan (issue 33 §2, docs/decisions/064): the video's chapters on the
 * output's timeline (a clip's shifted and cut), handed to ffmpeg for MP4, M4A and WebM outputs, to
 * our ID3 tag for MP3, and to our head rewrite (a `chpl` box) for an MP4 or M4A sent as it is. Written with the tags: a bare file (`tags: false`) has none.
 */
import type { Chapter, MediaPlan, ResolvedMedia } from "../../types.ts";
import { tagBytes } from "../tags/plan-tags.ts";
import { clipChapters } from "./chapters.ts";

interface Sized {
  plan: MediaPlan;
  size: { bytes: number | null; estimated: boolean };
}

/** What ffmpeg's MP4 muxer adds for chapters, about: a text track, a `chap` reference per track, a `chpl` box, a sample per chapter. */
export function mp4ChapterBytes(chapters: readonly Chapter[]): number {
  return 600 + chapters.reduce((sum, c) => sum + 40 + 2 * Buffer.byteLength(c.title, "utf8"), 0);
}

/** The plan with the chapters it writes, and its size with their bytes (an MP3's exactly, in its tag; others about). */
export function chapterPlan(sized: Sized, media: ResolvedMedia): Sized {
  const { plan, size } = sized;
  if (!media.chapters?.length || (plan.op !== "remux" && plan.op !== "transcode" && plan.op !== "passthrough")) return sized;
  const clip = plan.op === "passthrough" ? undefined : plan.clip;
  const chapters = clipChapters(media.chapters, clip?.start, clip?.end);
  if (chapters.length === 0) return sized;
  const grow = (bytes: number | null, added: number) => (bytes === null ? null : bytes + added);
  // in our own tag: an MP3's ID3 CHAP frames, a file sent as it is its head's chpl box, both sized exactly
  if ((plan.op === "transcode" && plan.codec === "mp3") || plan.op === "passthrough") {
    if (!plan.tags) return sized;
    const tags = { ...plan.tags, chapters };
    const added = tagBytes(tags) - tagBytes(plan.tags);
    return { plan: { ...plan, tags, bytes: grow(plan.bytes, added) }, size: { ...size, bytes: grow(size.bytes, added) } };
  }
  const added = mp4ChapterBytes(chapters);
  return { plan: { ...plan, chapters, bytes: grow(plan.bytes, added) }, size: { bytes: grow(size.bytes, added), estimated: size.bytes !== null } };
}
