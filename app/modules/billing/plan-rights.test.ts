/**
 * Every view of the plan table (common/plans.ts, decision 043) agrees with it: what the engine
 * enforces, what the app decides (ads, the dashboard's downloader), the plan cards, the
 * dashboard's plan card, docs/api.md's caller table, and the prose that names plans or prices.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { gatedFormats, holds, limitOf, mayDownload, paidPlansWith, PAID_PLAN_IDS, PLAN_IDS, PLANS, RIGHTS, rightsOf, type PlanId, type RightId, type RightsHolder } from "#common/plans.ts";
import { canDownload, fairUseApplies, isPremiumFormat } from "#engine/entitlements.ts";
import { FORMAT_IDS } from "#engine/formats.ts";
import { PAID_PLAN_LACKS_FORMAT } from "#engine/refusals.ts";
import type { Caller } from "#engine/types.ts";
import { openApiDocument } from "#server/api/openapi.ts";
import { planSummaryOf } from "../dashboard/plan-summary.server.ts";
import { PLAN_CARDS } from "./plan-catalogue.ts";
import { ENTITLEMENTS } from "./plans.ts";
import { callerOf, type Viewer } from "./viewer.server.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const HOLDERS: RightsHolder[] = ["anonymous", ...PLAN_IDS];

function viewerOn(plan: PlanId): Viewer {
  const user = { id: `u-${plan}`, name: plan, email: `${plan}@example.com`, emailVerified: true };
  return { user, plan: { plan, subscription: null }, entitlements: ENTITLEMENTS[plan] } as Viewer;
}

/** The caller the host hands the engine for a holder (anonymous: no viewer). */
function callerFor(holder: RightsHolder): Caller {
  return callerOf(holder === "anonymous" ? null : viewerOn(holder));
}

/** "Pro and Ultimate", "Basic, Pro or Ultimate" */
function spoken(names: string[], conjunction: "and" | "or"): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} ${conjunction} ${names.at(-1)}`;
}

describe("the plan table", () => {
  it("names only engine format ids, and every limit a built right needs is set", () => {
    for (const id of gatedFormats()) expect(FORMAT_IDS).toContain(id);
    for (const [right, spec] of Object.entries(RIGHTS) as Array<[RightId, { built: boolean; limit?: Parameters<typeof limitOf>[1] }]>) {
      if (!spec.limit || !spec.built) continue;
      for (const plan of PAID_PLAN_IDS.filter((id) => holds(id, right))) expect(limitOf(plan, spec.limit), `${plan} ${spec.limit}`).toBeTypeOf("number");
    }
  });
});

describe("the engine enforces the table", () => {
  it.each(HOLDERS)("%s: formats and fair use", (holder) => {
    const caller = callerFor(holder);
    for (const id of FORMAT_IDS) expect(canDownload(caller, id), `${holder} ${id}`).toBe(mayDownload(holder, id));
    expect(fairUseApplies(caller)).toBe(!holds(holder, "unlimitedDownloads"));
  });

  it("marks as premium exactly the formats a right unlocks", () => {
    expect(FORMAT_IDS.filter(isPremiumFormat).sort()).toEqual(gatedFormats().sort());
  });
});

describe("the app shows the table", () => {
  it.each(PLAN_IDS)("%s: ads, the downloader's premium formats and the engine agree", (plan) => {
    const e = ENTITLEMENTS[plan];
    expect(e.adFree).toBe(holds(plan, "adFree"));
    expect(e.unlimitedDownloads).toBe(!fairUseApplies(callerFor(plan)));
    expect(e.premiumFormats).toBe(gatedFormats().every((id) => canDownload(callerFor(plan), id)));
  });

  it("the plan cards: name, price, and one line per right the plan adds, 'Coming soon' while not built", () => {
    expect(PLAN_CARDS.map((c) => c.id)).toEqual(PAID_PLAN_IDS);
    const shown = new Map<string, RightId>();
    for (const id of Object.keys(RIGHTS) as RightId[]) if (RIGHTS[id].card) shown.set(RIGHTS[id].card!, id);
    for (const card of PLAN_CARDS) {
      const plan = PLANS[card.id];
      expect(card.title).toBe(plan.name);
      expect(card.priceLabel).toBe(`$${plan.monthlyPrice?.toFixed(2)}`);
      expect(card.buttonText).toBe(`Subscribe to ${plan.name}`);
      const [first, ...rest] = card.features;
      if (plan.includes) expect(first).toEqual({ label: `Everything in ${PLANS[plan.includes].name}` });
      const lines = plan.includes ? rest : card.features;
      // the card's own lines plus those of the plan it includes are every right with a line
      const own = lines.map((f) => shown.get(f.label));
      const inherited = plan.includes ? rightsOf(plan.includes) : [];
      expect(new Set([...inherited, ...own].filter((r) => r && RIGHTS[r].card))).toEqual(new Set(rightsOf(card.id).filter((r) => RIGHTS[r].card)));
      for (const f of lines) expect(Boolean(f.soon), `${card.id}: ${f.label}`).toBe(!RIGHTS[shown.get(f.label)!].built);
    }
  });

  it("the dashboard's plan card names the plan as the table does", () => {
    expect(planSummaryOf({ plan: "free", subscription: null })).toBeNull();
    for (const card of PLAN_CARDS) expect(planSummaryOf({ plan: card.id, subscription: null })?.name).toBe(PLANS[card.id].name);
  });
});

describe("the docs and the prose agree with the table", () => {
  /** docs/api.md "Who is calling": holders → the premium formats they get and whether fair use applies */
  function apiDocTable(): Map<RightsHolder, { formats: string[]; fairUse: boolean }> {
    const doc = readFileSync(path.join(root, "docs/api.md"), "utf8");
    const lines = doc.slice(doc.indexOf("## Who is calling")).split("\n");
    const start = lines.findIndex((l) => l.startsWith("|"));
    const end = lines.findIndex((l, i) => i > start && !l.startsWith("|"));
    const rows = lines.slice(start + 2, end); // without the header and its rule
    const byName = new Map<string, RightsHolder>([["anonymous", "anonymous"], ["free account", "free"], ...PAID_PLAN_IDS.map((id) => [PLANS[id].name, id] as [string, RightsHolder])]);
    const table = new Map<RightsHolder, { formats: string[]; fairUse: boolean }>();
    let previous: string[] = [];
    for (const row of rows) {
      const [who = "", formats = "", fairUse = ""] = row.split("|").slice(1).map((c) => c.trim());
      const ids = formats === "the same" ? previous : [...formats.matchAll(/`([\w-]+)`/g)].map((m) => m[1]!);
      previous = ids;
      for (const name of who.split(", ")) {
        const holder = byName.get(name);
        expect(holder, `docs/api.md names "${name}"`).toBeDefined();
        expect(table.has(holder!), `docs/api.md lists ${name} twice`).toBe(false);
        expect(fairUse, `docs/api.md: fair use for ${name}`).toMatch(/^(applies|none)\b/);
        table.set(holder!, { formats: [...ids].sort(), fairUse: fairUse.startsWith("applies") });
      }
    }
    return table;
  }

  it("docs/api.md's caller table", () => {
    const table = apiDocTable();
    expect([...table.keys()].sort()).toEqual([...HOLDERS].sort());
    for (const holder of HOLDERS) {
      const expected = { formats: gatedFormats().filter((id) => mayDownload(holder, id)).sort(), fairUse: !holds(holder, "unlimitedDownloads") };
      expect(table.get(holder), `docs/api.md's row for ${holder}`).toEqual(expected);
    }
  });

  it("the refusal and the OpenAPI description name the plans with the premium formats", () => {
    const names = (right: RightId) => paidPlansWith(right).map((id) => PLANS[id].name);
    expect(names("subtitles")).toEqual(names("ultraHd"));
    expect(PAID_PLAN_LACKS_FORMAT).toContain(`with the ${spoken(names("ultraHd"), "and")} plans`);
    expect(openApiDocument("http://localhost").info.description).toContain(`need the ${spoken(names("ultraHd"), "or")} plan`);
  });

  it("every price the pages quote is the table's", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => {
        const p = path.join(dir, f);
        return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) ? [p] : [];
      });
    const text = files(path.join(root, "app")).map((f) => readFileSync(f, "utf8")).join("\n");
    const price = (id: PlanId) => `$${PLANS[id].monthlyPrice?.toFixed(2)}`;
    const names = new Map(PAID_PLAN_IDS.map((id) => [PLANS[id].name, id]));
    const pairs = [
      ...[...text.matchAll(/(\$\d+\.\d\d) \((\w+)\)/g)].map((m) => [m[2]!, m[1]!]),
      ...[...text.matchAll(/\b(\w+) (\$\d+\.\d\d)/g)].filter((m) => names.has(m[1]!)).map((m) => [m[1]!, m[2]!]),
    ];
    expect(pairs.length).toBeGreaterThanOrEqual(6);
    for (const [name, quoted] of pairs) expect(quoted, name).toBe(price(names.get(name!)!));
    const lowest = `$${Math.min(...PAID_PLAN_IDS.map((id) => PLANS[id].monthlyPrice!)).toFixed(2)}`;
    const froms = [...text.matchAll(/\bfrom (\$\d+\.\d\d)/gi)].map((m) => m[1]);
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const quoted of froms) expect(quoted).toBe(lowest);
  });
});
