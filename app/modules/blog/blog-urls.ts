/** URLs of the blog list; the filters live in the URL so a filtered list can be shared. */
export interface ListState {
  tag?: string | null;
  q?: string | null;
  show?: number | null;
}

export function blogListUrl(state: ListState): string {
  const params = new URLSearchParams();
  if (state.tag) params.set("tag", state.tag);
  if (state.q?.trim()) params.set("q", state.q.trim());
  if (state.show) params.set("show", String(state.show));
  const qs = params.toString();
  return qs ? `/blog?${qs}` : "/blog";
}

export function tagUrl(tag: string): string {
  return blogListUrl({ tag });
}
