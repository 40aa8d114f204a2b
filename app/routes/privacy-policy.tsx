import type { Route } from "./+types/privacy-policy";
import { LEGAL_LAST_CHANGED } from "#app/modules/pages/legal/legal-dates.ts";
import { LegalDocument } from "#app/modules/pages/legal/legal-document.tsx";
import { privacyPolicySections } from "#app/modules/pages/legal/privacy-policy-sections.tsx";
import { pageMeta } from "#app/modules/site/page-meta.ts";
import { usePublicConfig } from "#app/lib/hooks/use-public-config.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "/privacy-policy");

export default function PrivacyPolicy() {
  const config = usePublicConfig();
  return (
    <LegalDocument
      title="Privacy Policy"
      lastChanged={LEGAL_LAST_CHANGED.privacyPolicy}
      intro={`${config.siteName} is built to need as little of your data as possible. This policy explains exactly what we process, why, and for how long.`}
      sections={privacyPolicySections(config)}
    />
  );
}
