import type { Request } from "express";
import type { Caller } from "#engine/types.ts";

/**
 * Who is calling the API. Anonymous for now; the accounts issue extends this (session cookie,
 * API key) without touching the routes, which is why it is async already.
 */
export async function callerFromRequest(_req: Request): Promise<Caller> {
  return { kind: "anonymous" };
}

/** The client address for fair-use limits (Express applies the host's `trust proxy` setting). */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}
