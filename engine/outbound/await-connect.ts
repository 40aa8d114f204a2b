import type { Socket } from "node:net";
import { EngineError } from "../errors.ts";
import { abortError } from "./outbound-errors.ts";

/**
 * Waits for a socket being connected to say `event` ("connect", or "secureConnect" for TLS):
 * `upstream.timeout` after `timeoutMs`, the signal's reason on abort, the socket's error on
 * failure; the socket is destroyed whenever it does not connect.
 */
export function awaitConnect(socket: Socket, event: "connect" | "secureConnect", label: string, timeoutMs: number, signal: AbortSignal | null | undefined): Promise<Socket> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      socket.destroy();
      reject(abortError(signal));
      return;
    }
    const timer = setTimeout(() => socket.destroy(new EngineError("upstream.timeout", { detail: `no connection to ${label} in ${timeoutMs} ms` })), timeoutMs);
    const onAbort = () => socket.destroy(abortError(signal));
    signal?.addEventListener("abort", onAbort, { once: true });
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      socket.off("error", onError);
    };
    const onError = (err: Error) => {
      settle();
      socket.destroy();
      reject(err);
    };
    socket.once("error", onError);
    socket.once(event, () => {
      settle();
      resolve(socket);
    });
  });
}
