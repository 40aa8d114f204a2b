import { describe, expect, it } from "vitest";
import { DMCA_COUNTER_ITEMS, DMCA_TAKEDOWN_ITEMS, FAIR_USE_FACTORS, dmcaSections } from "./dmca-sections.tsx";
import { disclaimerSections } from "./disclaimer-sections.tsx";
import { LEGAL_LAST_CHANGED, formatLegalDate } from "./legal-dates.ts";
import { privacyPolicySections } from "./privacy-policy-sections.tsx";
import { termsSections } from "./terms-sections.tsx";

const ctx = { siteName: "TestTube", contactEmail: "help@testtube.example", publicUrl: "https://testtube.example" };
const titles = (sections: { title: string }[]) => sections.map((s) => s.title);

describe("legal texts", () => {
  it("privacy policy has the spec's 13 sections in order", () => {
    expect(titles(privacyPolicySections(ctx))).toEqual([
      "Introduction",
      "Data we collect",
      "How we use your data",
      "Legal bases for processing (EU and UK users)",
      "How we share data",
      "Advertising and analytics",
      "How long we keep data",
      "Your rights",
      "International data transfers",
      "Security",
      "Children's privacy",
      "Changes to this policy",
      "Contact us",
    ]);
  });

  it("terms cover every section the spec lists", () => {
    expect(titles(termsSections(ctx))).toEqual([
      "Agreement to these terms",
      "Definitions",
      "Use of the Service",
      "The Ultimate plan: business use",
      "Account terms",
      "Subscriptions and payments",
      "Intellectual property",
      "Fair use of the Service",
      "Copyright complaints (DMCA)",
      "Disclaimer of warranties",
      "Limitation of liability",
      "Indemnification",
      "Termination",
      "Privacy",
      "Changes to these terms",
      "Governing law",
      "Contact",
    ]);
  });

  it("disclaimer has ten sections", () => {
    expect(disclaimerSections(ctx).map((s) => s.id)).toEqual([
      "website",
      "external-links",
      "fair-use",
      "service",
      "user-responsibility",
      "liability",
      "dmca",
      "changes",
      "governing-law",
      "contact",
    ]);
  });

  it("DMCA lists six notice items, five counter-notice items and four fair-use factors", () => {
    expect(DMCA_TAKEDOWN_ITEMS).toHaveLength(6);
    expect(DMCA_COUNTER_ITEMS).toHaveLength(5);
    expect(FAIR_USE_FACTORS).toHaveLength(4);
    expect(dmcaSections(ctx).map((s) => s.id)).toEqual(
      expect.arrayContaining(["takedown-notice", "counter-notification", "fair-use", "repeat-infringers", "international", "changes", "contact"]),
    );
  });

  it("formats the last-changed dates the same everywhere", () => {
    expect(formatLegalDate("2026-01-05")).toBe("January 5, 2026");
    for (const d of Object.values(LEGAL_LAST_CHANGED)) expect(formatLegalDate(d)).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    expect(() => formatLegalDate("yesterday")).toThrow();
  });
});
