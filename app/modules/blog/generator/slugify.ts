/**
 * The spec's slug rule: lowercased title, punctuation stripped, spaces to hyphens, then a hyphen
 * and a short suffix. Accents are folded first so "Café" becomes "cafe" rather than "caf".
 */
export function slugifyTitle(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, "")
    .trim()
    .replace(/[\s-]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export function slugWithSuffix(title: string, suffix: string): string {
  return `${slugifyTitle(title)}-${suffix}`;
}
