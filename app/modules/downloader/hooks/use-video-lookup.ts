import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { resolveErrorMessage, resolveVideo, type ResolveResult } from "../api-fetch.ts";

export type LookupState =
  | { status: "idle" }
  | { status: "loading"; url: string }
  | { status: "loaded"; url: string; result: ResolveResult }
  | { status: "error"; url: string; message: string };

/**
 * Spec §4 "Home download": no video → loading → video loaded, or error (video cleared and a
 * destructive toast titled Error with the engine's message). With `initialUrl` (from `/?url=`)
 * the page starts in the loading state, so the server render already holds the placeholder.
 */
export function useVideoLookup(initialUrl: string | null = null) {
  const [state, setState] = useState<LookupState>(initialUrl ? { status: "loading", url: initialUrl } : { status: "idle" });
  const controller = useRef<AbortController | null>(null);

  const lookup = useCallback(async (url: string) => {
    controller.current?.abort();
    const ctrl = new AbortController();
    controller.current = ctrl;
    setState({ status: "loading", url });
    try {
      const result = await resolveVideo(url, { signal: ctrl.signal });
      if (ctrl.signal.aborted) return;
      setState({ status: "loaded", url, result });
    } catch (err) {
      if (ctrl.signal.aborted) return;
      const message = resolveErrorMessage(err);
      setState({ status: "error", url, message });
      toast.error("Error", { description: message });
    }
  }, []);

  useEffect(() => {
    if (initialUrl) void lookup(initialUrl);
    return () => controller.current?.abort();
  }, [initialUrl, lookup]);

  return { state, lookup };
}
