import { EngineError } from "./errors.ts";
import type { Caller } from "./types.ts";

export const PAID_PLAN_LACKS_FORMAT = "This format comes with the Pro and Ultimate plans. Change your plan to download it.";

/** A premium format refused: a Basic subscriber is told which plans have it, not to "upgrade to Premium". */
export function premiumRefusal(caller: Caller): EngineError {
  return new EngineError("format.premium", caller.kind === "premium" ? { message: PAID_PLAN_LACKS_FORMAT } : {});
}
