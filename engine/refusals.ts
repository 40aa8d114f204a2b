import { PLANS, paidPlansWith, type RightId } from "#common/plans.ts";
import { EngineError } from "./errors.ts";
import type { Caller } from "./types.ts";

export const PAID_PLAN_LACKS_FORMAT = "This format comes with the Pro and Ultimate plans. Change your plan to download it.";

/** A premium format refused: a Basic subscriber is told which plans have it, not to "upgrade to Premium". */
export function premiumRefusal(caller: Caller): EngineError {
  return new EngineError("format.premium", caller.kind === "premium" ? { message: PAID_PLAN_LACKS_FORMAT } : {});
}

/** How a refusal names a feature ("Bulk downloads come with …", "API access comes with …"). */
const FEATURE_NAMES: Partial<Record<RightId, { name: string; plural: boolean }>> = {
  bulkDownloads: { name: "Bulk downloads", plural: true },
  scheduledDownloads: { name: "Scheduled downloads", plural: true },
  apiAccess: { name: "API access", plural: false },
  subtitles: { name: "Subtitles", plural: true },
  subtitleLanguages: { name: "Subtitles in every language", plural: true },
  downloadProfiles: { name: "Custom download profiles", plural: true },
  whiteLabel: { name: "The white label", plural: false },
};

/** "Pro and Ultimate", "Ultimate": the plans of the table that hold a right. */
function planNames(right: RightId): string {
  const names = paidPlansWith(right).map((id) => PLANS[id].name);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : (names[0] ?? "a paid plan");
}

/**
 * A feature the caller's plan lacks (403 `plan.required`), naming the plans that have it: a
 * subscriber is asked to change plan, anyone else to subscribe.
 */
export function planRequired(caller: Caller, right: RightId): EngineError {
  const { name: feature, plural } = FEATURE_NAMES[right] ?? { name: "This feature", plural: false };
  const plans = paidPlansWith(right);
  const verb = plural ? "come" : "comes";
  const what = `${feature} ${verb} with the ${planNames(right)} plan${plans.length > 1 ? "s" : ""}.`;
  const them = verb === "come" ? "them" : "it";
  const ask = caller.kind === "premium" ? `Change your plan to use ${them}.` : `Subscribe to use ${them}.`;
  return new EngineError("plan.required", { message: `${what} ${ask}`, detail: right });
}
