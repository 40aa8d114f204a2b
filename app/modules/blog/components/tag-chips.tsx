import { Link } from "react-router";
import { cn } from "#app/lib/cn.ts";
import { blogListUrl } from "../blog-urls.ts";

/** Tag filter chips; clicking the active tag clears it (spec §4 "Blog list"). The search is kept. */
export function TagChips({ tags, active, q }: { tags: { tag: string; count: number }[]; active: string | null; q: string }) {
  return (
    <nav aria-label="Filter by tag">
      <ul className="flex flex-wrap gap-2">
        {tags.map(({ tag }) => {
          const isActive = active?.toLowerCase() === tag.toLowerCase();
          return (
            <li key={tag}>
              <Link
                to={blogListUrl({ tag: isActive ? null : tag, q })}
                preventScrollReset
                aria-current={isActive ? "true" : undefined}
                data-testid="tag-chip"
                className={cn(
                  "inline-flex rounded-full border px-3 py-1 text-sm font-medium transition-colors",
                  isActive ? "border-brand-600 bg-brand-600 text-white hover:bg-brand-700" : "border-slate-300 bg-white text-slate-700 hover:border-brand-500 hover:text-brand-700",
                )}
              >
                {tag}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** Tag links on an article page, each to /blog?tag={tag}. */
export function ArticleTags({ tags }: { tags: string[] }) {
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag}>
          <Link to={blogListUrl({ tag })} className="inline-flex rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-700 hover:bg-brand-100">
            {tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}
