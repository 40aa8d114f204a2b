import { clsx, type ClassValue } from "clsx";

/**
 * Join class names. Components put overrides last and avoid conflicting utilities, so no
 * Tailwind-aware merging is needed (tailwind-merge cost ~8.5 KB on every page's first load).
 */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs);
}
