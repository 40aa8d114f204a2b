/**
 * Keep-alive connections of the media exchange, one idle list per destination. A guarded
 * connection is pooled apart from an unguarded one to the same host: its address was checked by
 * the guarded lookup when it connected, and only such a connection may carry a guarded request.
 * Idle sockets are unref'd (they never keep the process alive) and closed after `idleMs`; TLS
 * sessions are kept per destination so a new connection resumes instead of a full handshake.
 */
import net, { type LookupFunction, type Socket } from "node:net";
import tls, { type TLSSocket } from "node:tls";
import { awaitConnect } from "./await-connect.ts";
import type { EgressDialer } from "./egress.ts";
import { abortError } from "./outbound-errors.ts";
import { connectRecycling } from "./read-buffers.ts";

export interface Destination {
  secure: boolean;
  host: string;
  port: number;
  /** connect through the guarded lookup */
  guarded: boolean;
  /** another way out than this host's own address (a proxy, an IPv6 source address): pooled apart */
  via?: EgressDialer | null;
}

export interface ConnectionPool {
  /** an idle connection to `to`, or null */
  take(to: Destination): Socket | null;
  connect(to: Destination, timeoutMs: number, signal: AbortSignal | null | undefined): Promise<Socket>;
  /** a connection whose last response ended cleanly goes back to the idle list */
  release(to: Destination, socket: Socket): void;
  close(): void;
}

const IDLE_EVENTS = ["timeout", "error", "close", "data", "end"] as const;
const keyOf = (to: Destination) => `${to.via ? `${to.via.key}|` : ""}${to.guarded ? "g" : "u"}|${to.secure ? "https" : "http"}|${to.host}|${to.port}`;

export function createConnectionPool(opts: {
  guardedLookup: LookupFunction;
  maxIdlePerDestination?: number;
  idleMs?: number;
  /** trusted certificates instead of the system's (tests) */
  ca?: string | Buffer;
}): ConnectionPool {
  const maxIdle = opts.maxIdlePerDestination ?? 16;
  const idleMs = opts.idleMs ?? 4000;
  const idle = new Map<string, Map<Socket, () => void>>();
  const sessions = new Map<string, Buffer>();

  const forget = (key: string, socket: Socket) => {
    const list = idle.get(key);
    if (!list) return;
    list.delete(socket);
    if (list.size === 0) idle.delete(key);
  };

  function keepSession(key: string, socket: TLSSocket): void {
    socket.on("session", (session: Buffer) => {
      sessions.set(key, session);
      if (sessions.size > 256) sessions.delete(sessions.keys().next().value!);
    });
  }

  /** A connection the egress's way (its dialer checks a guarded name itself), TLS inside it for https. */
  async function connectVia(to: Destination, via: EgressDialer, timeoutMs: number, signal: AbortSignal | null | undefined): Promise<Socket> {
    const raw = await via.dial({ host: to.host, port: to.port, guarded: to.guarded }, timeoutMs, signal);
    raw.setNoDelay(true);
    if (!to.secure) return raw;
    const key = keyOf(to);
    const tlsSocket = tls.connect({
      socket: raw,
      servername: net.isIP(to.host) ? undefined : to.host,
      ALPNProtocols: ["http/1.1"],
      session: sessions.get(key),
      ...(opts.ca ? { ca: opts.ca } : {}),
    });
    keepSession(key, tlsSocket);
    try {
      return await awaitConnect(tlsSocket, "secureConnect", to.host, timeoutMs, signal);
    } catch (err) {
      raw.destroy();
      throw err;
    }
  }

  return {
    take(to) {
      const key = keyOf(to);
      const list = idle.get(key);
      if (!list) return null;
      for (const [socket, drop] of list) {
        forget(key, socket);
        for (const event of IDLE_EVENTS) socket.off(event, drop);
        socket.setTimeout(0);
        if (socket.destroyed || !socket.writable || socket.readableEnded) {
          socket.destroy();
          continue;
        }
        socket.ref();
        return socket;
      }
      return null;
    },

    async connect(to, timeoutMs, signal) {
      if (to.via) return connectVia(to, to.via, timeoutMs, signal);
      if (signal?.aborted) throw abortError(signal);
      const key = keyOf(to);
      const lookup = to.guarded ? opts.guardedLookup : undefined;
      let socket: Socket;
      if (to.secure) {
        const tlsSocket: TLSSocket = tls.connect({
          host: to.host,
          port: to.port,
          servername: net.isIP(to.host) ? undefined : to.host,
          ALPNProtocols: ["http/1.1"],
          session: sessions.get(key),
          lookup,
          ...(opts.ca ? { ca: opts.ca } : {}),
        });
        keepSession(key, tlsSocket);
        socket = tlsSocket;
      } else {
        // plain connections read into recycled buffers (read-buffers.ts); TLS decrypts into its own
        socket = connectRecycling({ host: to.host, port: to.port, lookup });
      }
      await awaitConnect(socket, to.secure ? "secureConnect" : "connect", to.host, timeoutMs, signal);
      socket.setNoDelay(true);
      return socket;
    },

    release(to, socket) {
      const key = keyOf(to);
      const list = idle.get(key) ?? new Map<Socket, () => void>();
      if (socket.destroyed || list.size >= maxIdle) {
        socket.destroy();
        return;
      }
      // an idle connection has nothing to say: bytes, an end, an error or the idle time drop it
      const drop = () => {
        forget(key, socket);
        socket.destroy();
      };
      list.set(socket, drop);
      idle.set(key, list);
      socket.unref();
      socket.setTimeout(idleMs);
      for (const event of IDLE_EVENTS) socket.once(event, drop);
      socket.resume();
    },

    close() {
      for (const list of idle.values()) for (const socket of list.keys()) socket.destroy();
      idle.clear();
      sessions.clear();
    },
  };
}
