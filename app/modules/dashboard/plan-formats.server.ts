import { mayDownload, type PlanId } from "#common/plans.ts";
import { FORMAT_CATALOG, FORMAT_IDS } from "#engine/formats.ts";

/** The formats a plan may download, with their labels, in the catalogue's order (the dashboard's format selects). */
export function formatsOfPlan(plan: PlanId): Array<{ id: string; label: string }> {
  return FORMAT_IDS.filter((id) => mayDownload(plan, id)).map((id) => ({ id, label: FORMAT_CATALOG[id].label }));
}
