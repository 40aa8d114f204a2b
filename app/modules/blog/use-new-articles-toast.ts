import { useEffect, useRef } from "react";
import { toast } from "sonner";

const LAST_VISIT_KEY = "vidfetch.blog.lastVisit";

/**
 * Spec §4 "Generated article store": "New Articles Available" once, when articles newer than
 * the visitor's last visit exist. The last visit lives in localStorage; a first visit sets it
 * without a toast (nothing is "new" to someone who has never been here).
 */
export function useNewArticlesToast(latestPublishedAt: string | null) {
  // the previous visit as read on mount (kept across effect re-runs, e.g. React's strict mode)
  const previous = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (!latestPublishedAt) return;
    if (previous.current === undefined) {
      try {
        previous.current = window.localStorage.getItem(LAST_VISIT_KEY);
        window.localStorage.setItem(LAST_VISIT_KEY, new Date().toISOString());
      } catch {
        // storage blocked (private mode): no toast rather than one on every page
        previous.current = null;
      }
    }
    const last = previous.current;
    if (!last || Date.parse(latestPublishedAt) <= Date.parse(last)) return;
    // The Toaster subscribes in its own mount effect, which runs after this one on the first
    // render; a toast published before that would be dropped, so publish on the next task.
    const timer = setTimeout(() => {
      toast("New Articles Available", { id: "blog-new-articles", description: "We've published fresh content today. Enjoy reading!" });
    }, 0);
    return () => clearTimeout(timer);
  }, [latestPublishedAt]);
}
