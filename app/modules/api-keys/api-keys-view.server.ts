import { CatalogueError } from "#common/error-catalogue.ts";
import { holds, limitOf, type PlanId } from "#common/plans.ts";
import type { ApiKeyFormResult, ApiKeysView } from "#app/modules/dashboard/dashboard-data.ts";
import type { Database } from "#db/client.ts";
import { planRequired } from "#engine/refusals.ts";
import { callerOfOwner } from "#app/modules/jobs/scheduled-jobs.server.ts";
import { saveSenderName, senderNameOf } from "#app/modules/white-label/white-label.server.ts";
import { createApiKeys, MAX_KEYS_PER_USER, type KeyOwner } from "./api-keys.server.ts";

/** What the dashboard's API tab shows a user: their keys, or which plan has API access. */
export async function apiKeysViewOf(db: Database, owner: { userId: string; plan: PlanId; accountName: string }, siteUrl: string): Promise<ApiKeysView> {
  const canUse = holds(owner.plan, "apiAccess");
  const whiteLabel = holds(owner.plan, "whiteLabel") ? { senderName: await senderNameOf(db, owner.userId), accountName: owner.accountName } : null;
  return {
    canUse,
    upgradeText: planRequired(callerOfOwner(owner), "apiAccess").message,
    // a plan that lost API access keeps its keys (refused when used): listed, to revoke them
    keys: await createApiKeys({ db }).list(owner.userId),
    maxKeys: MAX_KEYS_PER_USER,
    perMinute: limitOf(owner.plan, "requestsPerKeyPerMinute"),
    siteUrl: siteUrl.replace(/\/+$/, ""),
    whiteLabel,
  };
}

/**
 * The API tab's forms (`intent` create-key, revoke-key, white-label). A refusal comes back as its message
 * with its status; anything else throws. The new key is returned here only, once.
 */
export async function apiKeyFormAction(db: Database, owner: KeyOwner, fields: Record<string, string>): Promise<{ result: ApiKeyFormResult; status: number }> {
  const keys = createApiKeys({ db });
  const intent = fields.intent === "create-key" || fields.intent === "white-label" ? fields.intent : "revoke-key";
  try {
    if (intent === "white-label") {
      const saved = await saveSenderName(db, owner, fields.senderName ?? "");
      const message = saved ? `Mails about jobs made with your API keys are now sent as ${saved}.` : "Mails about jobs made with your API keys are now sent under your account's name.";
      return { result: { ok: true, intent, title: "Sender name saved", message, createdKey: null }, status: 200 };
    }
    if (intent === "create-key") {
      const created = await keys.create(owner, fields.name ?? "");
      return {
        result: { ok: true, intent, title: "Key created", message: `The key ${created.name} is ready.`, createdKey: { id: created.id, name: created.name, key: created.key } },
        status: 200,
      };
    }
    await keys.revoke(owner.userId, fields.keyId ?? "");
    return { result: { ok: true, intent, title: "Key revoked", message: "The key was revoked: requests made with it are refused from now on.", createdKey: null }, status: 200 };
  } catch (err) {
    if (err instanceof CatalogueError && err.status < 500) {
      return { result: { ok: false, intent, title: "Error", message: err.message, fields: [] }, status: err.status };
    }
    throw err;
  }
}
