/**
 * A shared state (Redis) that falls back to this process's own when it fails (issue 27, finding
 * 18: with Redis down every download link answered 500). Each call tries the shared store first;
 * one that fails for another reason than a refusal (an EngineError) is answered by the
 * in-process store, with a warning at most once a minute. Limits then hold per instance until
 * Redis is back; a link used meanwhile is protected once it is (its store refuses links made
 * before it lost its state: decision 041).
 */
import type { Logger } from "pino";
import { isEngineError } from "../errors.ts";
import { memoryEngineState } from "./memory.ts";
import type { EngineState, EngineStateFactory } from "./types.ts";

const WARN_EVERY_MS = 60_000;

export function withLocalFallback(shared: EngineStateFactory, logger: Pick<Logger, "warn">): EngineStateFactory {
  return (opts): EngineState => {
    const remote = shared(opts);
    const local = memoryEngineState(opts);
    let lastWarning = 0;
    /** `remote()`, or `local()` when the shared store failed (a refusal is passed on as it is) */
    const either = async <T>(what: string, remoteCall: () => Promise<T>, localCall: () => Promise<T>): Promise<T> => {
      try {
        return await remoteCall();
      } catch (err) {
        if (isEngineError(err)) throw err;
        if (opts.now() - lastWarning >= WARN_EVERY_MS) {
          lastWarning = opts.now();
          logger.warn({ err, what }, "shared engine state unavailable (redis): using this instance's own until it is back");
        }
        return localCall();
      }
    };
    return {
      admission: {
        check: (ip) => either("admission", () => remote.admission.check(ip), () => local.admission.check(ip)),
        hit: (ip) => either("admission", () => remote.admission.hit(ip), () => local.admission.hit(ip)),
        acquire: () => either("admission", () => remote.admission.acquire(), () => local.admission.acquire()),
        acquireStream: (ip, linkId) => either("admission", () => remote.admission.acquireStream(ip, linkId), () => local.admission.acquireStream(ip, linkId)),
      },
      resolveCache: {
        get: (key) => either("resolve cache", () => remote.resolveCache.get(key), async () => undefined),
        set: (key, media, expiresAt) => either("resolve cache", () => remote.resolveCache.set(key, media, expiresAt), async () => undefined),
        delete: (key) => either("resolve cache", () => remote.resolveCache.delete(key), async () => undefined),
        clear: () => either("resolve cache", () => remote.resolveCache.clear(), async () => undefined),
      },
      progress: {
        create: (id, total) => {
          remote.progress.create(id, total);
          local.progress.create(id, total);
        },
        start: (id, total, offset) => {
          remote.progress.start(id, total, offset);
          local.progress.start(id, total, offset);
        },
        addBytes: (id, n) => {
          remote.progress.addBytes(id, n);
          local.progress.addBytes(id, n);
        },
        setFiles: (id, files) => {
          remote.progress.setFiles(id, files);
          local.progress.setFiles(id, files);
        },
        finish: (id, state, error) => {
          remote.progress.finish(id, state, error);
          local.progress.finish(id, state, error);
        },
        subscribe: (id, fn) => either("progress", () => remote.progress.subscribe(id, fn), () => local.progress.subscribe(id, fn)),
      },
      linkUsage: {
        admit: (id, kind, expiresAtMs, issuedAtMs) => either("link usage", () => remote.linkUsage.admit(id, kind, expiresAtMs, issuedAtMs), () => local.linkUsage.admit(id, kind, expiresAtMs, issuedAtMs)),
        setSize: (id, bytes) => either("link usage", () => remote.linkUsage.setSize(id, bytes), () => local.linkUsage.setSize(id, bytes)),
        addBytes: (id, n) => {
          remote.linkUsage.addBytes(id, n);
          local.linkUsage.addBytes(id, n);
        },
        complete: (id) => either("link usage", () => remote.linkUsage.complete(id), () => local.linkUsage.complete(id)),
      },
      close: async () => {
        await Promise.allSettled([remote.close(), local.close()]);
      },
    };
  };
}
