/**
 * Whether this process is streaming a download right now, across every engine in it. The warm
 * pools (warm-processes.ts) start their replacement processes when none is: a process start
 * forks the server and blocks its event loop until the child has exec'd, and a new ffmpeg
 * loading its libraries competes for the CPU with the ones at work (docs/decisions/033).
 */
export interface StreamingActivity {
  /** a download starts streaming; the function returned marks its end (idempotent) */
  begin(): () => void;
  /** downloads streaming now */
  streaming(): number;
  /**
   * calls `listener` once, the next time no download streams: at once when none does now.
   * Returns a function that cancels the call.
   */
  whenQuiet(listener: () => void): () => void;
}

export function createStreamingActivity(): StreamingActivity {
  let streaming = 0;
  const waiting = new Set<() => void>();
  return {
    begin() {
      streaming++;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        streaming--;
        if (streaming > 0) return;
        const listeners = [...waiting];
        waiting.clear();
        for (const listener of listeners) listener();
      };
    },
    streaming: () => streaming,
    whenQuiet(listener) {
      if (streaming === 0) {
        listener();
        return () => undefined;
      }
      // a wrapper of its own, so the same listener given twice is called twice
      const once = () => listener();
      waiting.add(once);
      return () => void waiting.delete(once);
    },
  };
}

/** One per process: the event loop and the CPU the pools spare are the process's, not an engine's. */
export const processStreaming: StreamingActivity = createStreamingActivity();
