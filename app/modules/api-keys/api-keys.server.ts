/**
 * API keys (issue 31 §1): created by an Ultimate user, shown once, kept as their SHA-256 only.
 * A request's key is found by that hash (an index lookup of a digest: nothing about how much of a
 * guessed key was right can be learned from its timing), and its use is counted per day.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { holds, type PlanId } from "#common/plans.ts";
import type { Database } from "#db/client.ts";
import { apiKeyUsage, apiKeys } from "#db/schema/api-keys.ts";
import { planRequired } from "#engine/refusals.ts";
import { callerOfOwner } from "#app/modules/jobs/scheduled-jobs.server.ts";
import { KeyError } from "./api-key-messages.ts";

/** what every key starts with: a scanner (a leaked key in a repository) can tell it is ours */
export const KEY_PREFIX = "vf_";
/** keys one account holds at once */
export const MAX_KEYS_PER_USER = 10;
const NAME_MAX = 60;
/** characters of the key shown in the list (the prefix and 8 of its random ones) */
const SHOWN_CHARS = KEY_PREFIX.length + 8;

export interface KeyOwner {
  userId: string;
  plan: PlanId;
}

/** A key as its owner's list shows it (never the key itself). */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  requestsThisMonth: number;
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** 32 random bytes after the prefix: 256 bits, nothing to guess */
function newKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/** the UTC day of a moment, as the usage table keys it */
function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

function checkRight(owner: KeyOwner): void {
  if (!holds(owner.plan, "apiAccess")) throw planRequired(callerOfOwner(owner), "apiAccess");
}

export function createApiKeys(deps: { db: Database; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    /** A new key for its owner: the only time the key itself is returned. */
    async create(owner: KeyOwner, name: string): Promise<{ id: string; name: string; key: string; prefix: string; createdAt: string }> {
      checkRight(owner);
      const trimmed = name.trim();
      if (trimmed.length < 1 || trimmed.length > NAME_MAX || /[\p{Cc}]/u.test(trimmed)) throw new KeyError("key.invalid_name");
      const active = await db.$count(apiKeys, and(eq(apiKeys.userId, owner.userId), isNull(apiKeys.revokedAt)));
      if (active >= MAX_KEYS_PER_USER) throw new KeyError("key.too_many");
      const key = newKey();
      const at = now();
      const row = { id: randomUUID(), userId: owner.userId, name: trimmed, prefix: key.slice(0, SHOWN_CHARS), hash: hashKey(key), createdAt: at };
      await db.insert(apiKeys).values(row);
      return { id: row.id, name: row.name, key, prefix: row.prefix, createdAt: at.toISOString() };
    },

    /** The owner's keys that are not revoked, oldest first, with this month's requests. */
    async list(userId: string): Promise<ApiKeyView[]> {
      const monthStart = `${dayOf(now()).slice(0, 7)}-01`;
      const rows = await db
        .select({
          id: apiKeys.id,
          name: apiKeys.name,
          prefix: apiKeys.prefix,
          createdAt: apiKeys.createdAt,
          lastUsedAt: apiKeys.lastUsedAt,
          requests: sql<string | null>`(select sum(${apiKeyUsage.requests}) from ${apiKeyUsage} where ${apiKeyUsage.keyId} = ${apiKeys.id} and ${apiKeyUsage.day} >= ${monthStart})`,
        })
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .orderBy(asc(apiKeys.createdAt));
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        prefix: r.prefix,
        createdAt: r.createdAt.toISOString(),
        lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
        requestsThisMonth: Number(r.requests ?? 0),
      }));
    },

    /** Revokes one of the owner's keys; another user's key is no different from none. */
    async revoke(userId: string, id: string): Promise<void> {
      const [revoked] = await db
        .update(apiKeys)
        .set({ revokedAt: now() })
        .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      if (!revoked) throw new KeyError("key.not_found");
    },

    /** The live key a request presents, or null (unknown, revoked, or not shaped like a key). */
    async verify(key: string): Promise<{ keyId: string; userId: string } | null> {
      if (!key.startsWith(KEY_PREFIX) || key.length > 100) return null;
      const [row] = await db
        .select({ keyId: apiKeys.id, userId: apiKeys.userId })
        .from(apiKeys)
        .where(and(eq(apiKeys.hash, hashKey(key)), isNull(apiKeys.revokedAt)))
        .limit(1);
      return row ?? null;
    },

    /** One request made with the key: counted for today and remembered as its last use. */
    async recordUse(keyId: string): Promise<void> {
      const at = now();
      await db
        .insert(apiKeyUsage)
        .values({ keyId, day: dayOf(at), requests: 1 })
        .onConflictDoUpdate({ target: [apiKeyUsage.keyId, apiKeyUsage.day], set: { requests: sql`${apiKeyUsage.requests} + 1` } });
      await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, keyId));
    },

  };
}

export type ApiKeys = ReturnType<typeof createApiKeys>;
