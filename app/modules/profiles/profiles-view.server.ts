import { CatalogueError } from "#common/error-catalogue.ts";
import { holds, type PlanId } from "#common/plans.ts";
import type { ProfileFormResult, ProfilesView } from "#app/modules/dashboard/dashboard-data.ts";
import { formatsOfPlan } from "#app/modules/dashboard/plan-formats.server.ts";
import { callerOfOwner } from "#app/modules/jobs/scheduled-jobs.server.ts";
import type { Database } from "#db/client.ts";
import { FORMAT_CATALOG, isFormatId } from "#engine/formats.ts";
import { planRequired } from "#engine/refusals.ts";
import { createProfiles, MAX_PROFILES_PER_USER } from "./profiles.server.ts";

type Owner = { userId: string; plan: PlanId };

function formatLabel(format: string): string {
  return isFormatId(format) ? FORMAT_CATALOG[format].label : format;
}

/** What the dashboard's Profiles tab shows a user: their profiles and the plan's formats, or which plan has profiles. */
export async function profilesViewOf(db: Database, owner: Owner): Promise<ProfilesView> {
  const canUse = holds(owner.plan, "downloadProfiles");
  // a plan that lost the right keeps its profiles: listed, to delete them
  const profiles = await createProfiles({ db }).list(owner.userId);
  return {
    canUse,
    upgradeText: planRequired(callerOfOwner(owner), "downloadProfiles").message,
    profiles: profiles.map((p) => ({ id: p.id, name: p.name, format: p.format, formatLabel: formatLabel(p.format), language: p.language, filenameTemplate: p.filenameTemplate })),
    maxProfiles: MAX_PROFILES_PER_USER,
    formats: canUse ? formatsOfPlan(owner.plan) : [],
  };
}

/** What the downloader's "Your profiles" row offers a viewer: nothing without the right. */
export async function downloaderProfilesOf(db: Database, owner: Owner): Promise<Array<{ id: string; name: string; format: string }>> {
  if (!holds(owner.plan, "downloadProfiles")) return [];
  const profiles = await createProfiles({ db }).list(owner.userId);
  return profiles.map((p) => ({ id: p.id, name: p.name, format: p.format }));
}

/** an optional field left empty is no value */
const optional = (value: string | undefined): string | null => (value?.trim() ? value.trim() : null);

/**
 * The Profiles tab's forms (`intent` create-profile, delete-profile). A refusal comes back as its
 * message with its status (a refused create with what was typed); anything else throws.
 */
export async function profileFormAction(db: Database, owner: Owner, fields: Record<string, string>): Promise<{ result: ProfileFormResult; status: number }> {
  const profiles = createProfiles({ db });
  const intent = fields.intent === "create-profile" ? "create-profile" : "delete-profile";
  const values = { name: fields.name ?? "", format: fields.format ?? "", language: fields.language ?? "", filenameTemplate: fields.filenameTemplate ?? "" };
  try {
    if (intent === "create-profile") {
      const created = await profiles.create(owner, {
        name: values.name,
        format: values.format,
        language: optional(values.language),
        filenameTemplate: optional(values.filenameTemplate),
      });
      return { result: { ok: true, intent, title: "Profile saved", message: `The profile ${created.name} is ready: it is offered above the formats of every video you look up.` }, status: 200 };
    }
    await profiles.remove(owner.userId, fields.profileId ?? "");
    return { result: { ok: true, intent, title: "Profile deleted", message: "The profile was deleted." }, status: 200 };
  } catch (err) {
    if (err instanceof CatalogueError && err.status < 500) {
      return { result: { ok: false, intent, title: "Error", message: err.message, fields: [], typed: intent === "create-profile" ? values : null }, status: err.status };
    }
    throw err;
  }
}
