/**
 * A cap on the connections open to one host, shared by every download of the process: a slot is
 * held from the request until its body is finished (a parked body holds a socket). First come,
 * first served, except that `urgent` waiters (a consumer blocked now) go before speculative ones.
 * Why: docs/decisions/021-parallel-ranges-and-host-cap.md.
 */
export interface HostSlots {
  /** Resolves with a release function once `host` has a free slot; rejects when `signal` aborts. */
  acquire(host: string, opts?: { signal?: AbortSignal | null; urgent?: boolean }): Promise<() => void>;
  /** slots in use for `host` */
  inUse(host: string): number;
  /** requests waiting for a slot of `host` */
  waiting(host: string): number;
}

interface Waiter {
  urgent: boolean;
  grant: () => void;
}

interface HostState {
  active: number;
  queue: Waiter[];
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException("This operation was aborted", "AbortError");
}

/** `limit` connections per host; 0 or less means no cap. */
export function createHostSlots(limit: number): HostSlots {
  const hosts = new Map<string, HostState>();

  function stateOf(host: string): HostState {
    let state = hosts.get(host);
    if (!state) {
      state = { active: 0, queue: [] };
      hosts.set(host, state);
    }
    return state;
  }

  function releaser(host: string, state: HostState): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = state.queue.shift();
      if (next) {
        // the slot passes straight to the next waiter
        next.grant();
        return;
      }
      state.active--;
      if (state.active === 0) hosts.delete(host);
    };
  }

  return {
    acquire(host, opts = {}) {
      const signal = opts.signal ?? null;
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      const state = stateOf(host);
      if (limit <= 0 || state.active < limit) {
        state.active++;
        return Promise.resolve(releaser(host, state));
      }
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          urgent: opts.urgent === true,
          grant: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve(releaser(host, state));
          },
        };
        const onAbort = () => {
          const i = state.queue.indexOf(waiter);
          if (i !== -1) state.queue.splice(i, 1);
          reject(abortReason(signal!));
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        if (waiter.urgent) {
          const firstSpeculative = state.queue.findIndex((w) => !w.urgent);
          state.queue.splice(firstSpeculative === -1 ? state.queue.length : firstSpeculative, 0, waiter);
        } else {
          state.queue.push(waiter);
        }
      });
    },
    inUse: (host) => hosts.get(host)?.active ?? 0,
    waiting: (host) => hosts.get(host)?.queue.length ?? 0,
  };
}
