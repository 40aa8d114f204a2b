/**
 * What a caller may download: the engine's enforcement of the plan table (common/plans.ts,
 * decision 043). A caller is anonymous, a free account or a paid plan; the table says which
 * formats need a right (1440p/2160p/4320p, SRT/VTT) and which plans are exempt from per-IP fair use.
 */
import { gatedFormats, holds, limitOf, mayDownload, type GatedFormatId, type LimitId, type RightId, type RightsHolder } from "#common/plans.ts";
import type { Caller, FormatId } from "./types.ts";

// the table's format ids are engine format ids: a typo there fails the typecheck here
const formatIdsChecked: GatedFormatId extends FormatId ? true : never = true;
void formatIdsChecked;

const PREMIUM_FORMATS: ReadonlySet<FormatId> = new Set<FormatId>(gatedFormats());

/** A premium caller without a known plan gets the least a paid plan gives (Basic). */
function holderOf(caller: Caller): RightsHolder {
  if (caller.kind !== "premium") return caller.kind;
  return caller.plan ?? "basic";
}

export function isPremiumFormat(id: FormatId): boolean {
  return PREMIUM_FORMATS.has(id);
}

export function canDownload(caller: Caller, id: FormatId): boolean {
  return mayDownload(holderOf(caller), id);
}

/** Whether the per-IP fair-use limit (downloads per hour) applies to this caller. */
export function fairUseApplies(caller: Caller): boolean {
  return !holds(holderOf(caller), "unlimitedDownloads");
}

/** Whether the caller's plan holds a feature right (bulk downloads, scheduled downloads…). */
export function mayUse(caller: Caller, right: RightId): boolean {
  return holds(holderOf(caller), right);
}

/** A limit of the caller's plan (e.g. links per bulk download); null when the plan sets none. */
export function limitFor(caller: Caller, limit: LimitId): number | null {
  return limitOf(holderOf(caller), limit);
}
