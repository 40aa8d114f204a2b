/**
 * Video thumbnails. YouTube publishes fixed names per video on i.ytimg.com: default (120×90),
 * mqdefault (medium, 320×180), hqdefault (high, 480×360) exist for every video; maxresdefault
 * (1280×720) only when the upload is HD, so its presence is checked before it is offered.
 */
import type { Thumbnail } from "../../types.ts";

export function standardThumbnails(id: string, hasMaxres: boolean): Thumbnail[] {
  const base = `https://i.ytimg.com/vi/${id}`;
  const list: Thumbnail[] = [];
  if (hasMaxres) list.push({ url: `${base}/maxresdefault.jpg`, width: 1280, height: 720, name: "maxres" });
  list.push(
    { url: `${base}/hqdefault.jpg`, width: 480, height: 360, name: "high" },
    { url: `${base}/mqdefault.jpg`, width: 320, height: 180, name: "medium" },
    { url: `${base}/default.jpg`, width: 120, height: 90, name: "default" },
  );
  return list;
}

/** Data API `thumbnails` map → our list (names kept: maxres, standard, high, medium, default). */
export function thumbnailsFromMap(map: Record<string, { url?: string; width?: number; height?: number } | undefined>): Thumbnail[] {
  const order = ["maxres", "standard", "high", "medium", "default"];
  return order
    .filter((name) => map[name]?.url)
    .map((name) => ({ url: map[name]!.url!, width: map[name]!.width, height: map[name]!.height, name }));
}

/** Smallest avatar at least `min` px wide (channel thumbnails come in 48/88/176). */
export function pickAvatar(thumbs: Array<{ url: string; width?: number }> | undefined, min = 88): string {
  if (!thumbs?.length) return "";
  const sorted = [...thumbs].sort((a, b) => (a.width ?? 0) - (b.width ?? 0));
  return (sorted.find((t) => (t.width ?? 0) >= min) ?? sorted[sorted.length - 1]!).url;
}
