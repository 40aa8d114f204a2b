import { createHmac, randomBytes } from "node:crypto";

// Without a configured secret the key lives for one process: hashes still link repeated
// submissions from one address (abuse handling) but cannot be reversed by hashing all IPv4s.
const processKey = randomBytes(32);

/**
 * The address a form came from, as a keyed hash (privacy policy: we never store raw IP
 * addresses with messages). 32 hex characters are plenty to tell senders apart.
 */
export function hashClientIp(ip: string, secret?: string): string {
  return createHmac("sha256", secret ?? processKey)
    .update(`client-ip:${ip}`)
    .digest("hex")
    .slice(0, 32);
}
