import { describe, expect, it } from "vitest";
import { PREMIUM_FEATURES } from "#app/modules/downloader/components/home-sections.tsx";
import { includedFeatures, PLAN_CARDS, shownFeatures } from "./plan-catalogue.ts";

/**
 * What each plan card claims, read from the cards: a line is shown as included only for what the
 * product does today. Moving a line from "soon" to built means building it first (issues 30, 31).
 */
const INCLUDED_TODAY: Record<string, string[]> = {
  basic: ["Ad-free experience", "Unlimited downloads", "Up to 1080p quality", "Email support", "Basic article content"],
  pro: ["Everything in Basic", "4K and 8K downloads", "Subtitles (SRT and VTT)", "Scheduled downloads", "Priority support", "Full premium articles"],
  ultimate: ["Everything in Pro", "Bulk downloads", "API access", "Custom download profiles", "White-label option", "Dedicated account manager", "Commercial usage rights"],
};
/** every line is built (issue 31 closed the last, the white label) */
const NOT_BUILT: string[] = [];

describe("plan cards", () => {
  it("show as included only the features that exist", () => {
    for (const card of PLAN_CARDS) {
      expect(card.features.filter((f) => !f.soon).map((f) => f.label), card.id).toEqual(INCLUDED_TODAY[card.id]);
    }
  });

  it("mark every feature that is not built as coming soon", () => {
    const soon = PLAN_CARDS.flatMap((c) => c.features.filter((f) => f.soon).map((f) => f.label));
    expect(soon.sort()).toEqual([...NOT_BUILT].sort());
  });

  it("show the account manager only on a server with an address for Ultimate members", () => {
    const ultimate = PLAN_CARDS.find((c) => c.id === "ultimate")!;
    expect(shownFeatures(ultimate, { accountManager: false }).map((f) => f.label)).not.toContain("Dedicated account manager");
    expect(shownFeatures(ultimate, { accountManager: true }).map((f) => f.label)).toContain("Dedicated account manager");
    // a line that depends on the server is never promised by the home page's block
    expect(includedFeatures()).not.toContain("Dedicated account manager");
  });

  it("the home page's premium block names only included features", () => {
    for (const f of PREMIUM_FEATURES) expect(includedFeatures()).toContain(f);
  });
});
