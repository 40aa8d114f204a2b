/**
 * Socket reads into buffers that are used again. A plain TCP connection of the media exchange
 * reads into a 64 KiB buffer taken from here (Node's `onread`) instead of a fresh allocation per
 * read; the bytes are handed on as views of it. Once every byte a read handed on has been written
 * to the visitor (`giveBack`, called by the response writer after the socket took the write),
 * the buffer is free for another read. A view that is dropped, copied or kept elsewhere is simply
 * never given back: its buffer is then left to the garbage collector like any other allocation.
 * Fresh allocations per read were what drove V8's full collections while relaying
 * (docs/decisions/060-recycled-read-buffers.md).
 */
import net, { type Socket } from "node:net";

/** the size of one socket read: libuv's own suggestion for a stream read */
export const READ_BUFFER_BYTES = 64 * 1024;
/** free buffers kept at most (4 MiB); more are left to the collector */
const MAX_FREE = 64;

interface Slot {
  buf: Buffer;
  /** bytes of this buffer handed on and not given back yet */
  lent: number;
  /** the socket may still be reading into it */
  reading: boolean;
}

const slots = new WeakMap<ArrayBufferLike, Slot>();
const free: Slot[] = [];

const counts = { fresh: 0, reused: 0 };

/** reads into a new buffer and into one used again, since the process started */
export function readBufferCounts(): { fresh: number; reused: number } {
  return { ...counts };
}

function takeSlot(): Slot {
  const reused = free.pop();
  counts[reused ? "reused" : "fresh"]++;
  const slot = reused ?? { buf: Buffer.allocUnsafeSlow(READ_BUFFER_BYTES), lent: 0, reading: false };
  slots.set(slot.buf.buffer, slot);
  slot.reading = true;
  slot.lent = 0;
  return slot;
}

function settle(slot: Slot): void {
  if (slot.reading || slot.lent !== 0) return;
  slots.delete(slot.buf.buffer);
  if (free.length < MAX_FREE) free.push(slot);
}

/** counts `view`'s bytes as handed on, when it is a view of a recycled read buffer */
export function lend(view: Uint8Array): void {
  const slot = slots.get(view.buffer);
  if (slot) slot.lent += view.length;
}

/** the bytes of `view` have been written and are not needed any more */
export function giveBack(view: Uint8Array): void {
  const slot = slots.get(view.buffer);
  if (!slot) return;
  slot.lent -= view.length;
  if (slot.lent < 0) {
    // more given back than lent: something handed these bytes on twice. Never reuse this buffer.
    slots.delete(slot.buf.buffer);
    return;
  }
  settle(slot);
}

type Sink = (bytes: Buffer) => void;
const sinks = new WeakMap<Socket, Sink>();
const recycling = new WeakSet<Socket>();

/**
 * A plain TCP connection whose reads are recycled: what a read brings goes to the socket's sink
 * (`setSink`), as a view valid only until the sink returns unless it is lent on. A read with no
 * sink is unexpected bytes, which destroy the connection (an idle keep-alive connection has
 * nothing to say).
 */
export function connectRecycling(options: net.NetConnectOpts): Socket {
  let current: Slot | null = null;
  const socket: Socket = net.connect({
    ...options,
    onread: {
      buffer: () => {
        current = takeSlot();
        return current.buf;
      },
      callback: (n: number, buf: Uint8Array) => {
        const slot = current;
        current = null;
        try {
          const sink = sinks.get(socket);
          if (sink) sink(Buffer.from(buf.buffer, buf.byteOffset, n));
          else socket.destroy();
        } finally {
          if (slot) {
            slot.reading = false;
            settle(slot);
          }
        }
        return true;
      },
    },
  } as net.NetConnectOpts);
  recycling.add(socket);
  return socket;
}

/** Delivers a socket's reads to `sink` (null: none): from its read callback when it recycles them, else through `data` events. */
export function setSink(socket: Socket, sink: Sink | null): void {
  if (!recycling.has(socket)) {
    const previous = sinks.get(socket);
    if (previous) socket.off("data", previous);
    if (sink) socket.on("data", sink);
  }
  if (sink) sinks.set(socket, sink);
  else sinks.delete(socket);
}

/** whether the socket's reads are views of recycled buffers (the sink must copy or lend what it keeps) */
export function readsRecycled(socket: Socket): boolean {
  return recycling.has(socket);
}
