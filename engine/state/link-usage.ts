import { EngineError } from "../errors.ts";

/**
 * What one signed download link has already delivered, so a link is one download rather than an
 * hour of unlimited replays (docs/decisions/010-download-links-are-single-use.md):
 *
 * - a full request (no Range, or `bytes=0-`) may run until one of them delivered the whole file;
 *   after that the link is used up and answers download.link_used (410);
 * - a resume (any other Range) is allowed while the bytes the link served stay within twice the
 *   file's size (a resumed download, retries and overlapping parts fit; endless replays do not).
 *
 * State is kept per download id until the link expires; it lives in this process (a restart
 * forgets it, which at worst allows one more full download of a link).
 */
export type RequestKind = "full" | "resume";

export interface LinkUsage {
  /** throws download.link_used when this request would replay a used-up link */
  admit(id: string, kind: RequestKind, expiresAtMs: number): void;
  /** the file's size, once a response told it (resume budget) */
  setSize(id: string, bytes: number | null): void;
  addBytes(id: string, n: number): void;
  /** a full request delivered every byte */
  complete(id: string): void;
  /** entries kept (tests) */
  size(): number;
}

/** a link may serve this many times its file's size through resumes */
const RESUME_BUDGET_FACTOR = 2;

interface Usage {
  expiresAt: number;
  size: number | null;
  served: number;
  completed: boolean;
}

export function createLinkUsage(opts: { now?: () => number; maxEntries?: number } = {}): LinkUsage {
  const now = opts.now ?? Date.now;
  const maxEntries = opts.maxEntries ?? 200_000;
  const entries = new Map<string, Usage>();

  const prune = () => {
    const t = now();
    for (const [id, u] of entries) if (u.expiresAt <= t) entries.delete(id);
    // FIXME: past the cap the oldest links are forgotten and could be replayed once more; each
    // entry needed a full download counted against fair use, so reaching it takes many IPs.
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
  };

  return {
    admit(id, kind, expiresAtMs) {
      let u = entries.get(id);
      if (!u) {
        prune();
        u = { expiresAt: expiresAtMs, size: null, served: 0, completed: false };
        entries.set(id, u);
      }
      if (kind === "full" && u.completed) {
        throw new EngineError("download.link_used", { detail: `${id}: already downloaded in full` });
      }
      if (kind === "resume" && u.size !== null && u.served >= u.size * RESUME_BUDGET_FACTOR) {
        throw new EngineError("download.link_used", { detail: `${id}: served ${u.served} bytes of a ${u.size}-byte file` });
      }
    },
    setSize(id, bytes) {
      const u = entries.get(id);
      if (u && bytes !== null && bytes > 0) u.size = bytes;
    },
    addBytes(id, n) {
      const u = entries.get(id);
      if (u) u.served += n;
    },
    complete(id) {
      const u = entries.get(id);
      if (u) u.completed = true;
    },
    size: () => entries.size,
  };
}

/**
 * `bytes=0-` is how curl, browsers and download managers start a fresh download; any other
 * Range continues one. HEAD and requests without Range are full requests.
 */
export function requestKind(range: string | undefined): RequestKind {
  if (range === undefined) return "full";
  const value = range.trim().toLowerCase();
  if (value === "" || /^bytes=0-$/.test(value)) return "full";
  return "resume";
}
