import { useCallback, useRef, useState } from "react";
import { toolErrorMessage, ToolError } from "./tool-errors.ts";

export interface TaskState {
  running: boolean;
  progress: number;
  startedAt: number;
  error: string | null;
}

/**
 * Runs one long task at a time with progress, cancel and a readable error. A canceled task
 * clears quietly; a newer task makes an older one's late result be ignored.
 */
export function useToolTask() {
  const [state, setState] = useState<TaskState>({ running: false, progress: 0, startedAt: 0, error: null });
  const controller = useRef<AbortController | null>(null);
  const run = useCallback(async <T,>(task: (opts: { signal: AbortSignal; onProgress: (p: number) => void }) => Promise<T>): Promise<T | null> => {
    controller.current?.abort();
    const ac = new AbortController();
    controller.current = ac;
    setState({ running: true, progress: 0, startedAt: Date.now(), error: null });
    try {
      const result = await task({ signal: ac.signal, onProgress: (p) => setState((s) => (controller.current === ac ? { ...s, progress: p } : s)) });
      if (controller.current !== ac) return null;
      setState((s) => ({ ...s, running: false, progress: 1 }));
      return result;
    } catch (e) {
      if (controller.current === ac) {
        const canceled = e instanceof ToolError && e.code === "tool.canceled";
        setState((s) => ({ ...s, running: false, error: canceled ? null : toolErrorMessage(e) }));
      }
      return null;
    }
  }, []);
  const cancel = useCallback(() => controller.current?.abort(), []);
  const fail = useCallback((message: string | null) => setState((s) => ({ ...s, running: false, error: message })), []);
  return { ...state, run, cancel, fail };
}
