import { Link } from "react-router";
import { ContactLines, WriteTo, type LegalContext, type LegalSection } from "./legal-document.tsx";

export const DMCA_TAKEDOWN_ITEMS = [
  "A physical or electronic signature of the copyright owner or of a person authorised to act on their behalf.",
  "Identification of the copyrighted work you claim is infringed (for example its title, or a link to where the original is published). If several works are covered by one notice, a representative list.",
  "Identification of the material you claim is infringing and information reasonably sufficient for us to locate it: the exact video link(s) or the address of the page on our site.",
  "Your contact information: full name, postal address, telephone number and email address.",
  "A statement that you have a good-faith belief that the use of the material is not authorised by the copyright owner, its agent or the law.",
  "A statement that the information in the notice is accurate and, under penalty of perjury, that you are the copyright owner or authorised to act on the owner's behalf.",
] as const;

export const DMCA_COUNTER_ITEMS = [
  "Your physical or electronic signature.",
  "Identification of the material that was removed or blocked, and the link or location where it appeared before.",
  "A statement under penalty of perjury that you have a good-faith belief the material was removed or blocked as a result of a mistake or misidentification.",
  "Your name, postal address, telephone number and email address.",
  "A statement that you consent to the jurisdiction of the federal district court for your address (or, if you are outside the United States, any judicial district in which we may be found), and that you will accept service of process from the person who sent the original notice or their agent.",
] as const;

export const FAIR_USE_FACTORS = [
  "The purpose and character of the use, including whether it is commercial or for non-profit educational purposes, and whether it transforms the original.",
  "The nature of the copyrighted work, for example factual or creative, published or unpublished.",
  "The amount and substantiality of the portion used in relation to the work as a whole.",
  "The effect of the use on the potential market for, or value of, the copyrighted work.",
] as const;

/** DMCA and copyright policy (spec §2, §9: repeat infringer > 2 valid notices in 12 months, restoration in 10 to 14 business days). */
export function dmcaSections(ctx: LegalContext): LegalSection[] {
  const { siteName } = ctx;
  return [
    {
      id: "overview",
      title: "Our approach to copyright",
      body: (
        <>
          <p>
            {siteName} respects the rights of creators and complies with the Digital Millennium Copyright Act (DMCA, 17 U.S.C. § 512). We do not
            host or store videos: our server fetches a video from its platform only when a user asks for it and streams it directly to that user.
          </p>
          <p>
            When we receive a valid notice, we block the identified video link(s) from being processed by our service, remove any reference to them
            from our own pages, and apply our repeat-infringer policy to accounts involved. To have the video itself removed from the internet,
            also contact the platform that hosts it.
          </p>
        </>
      ),
    },
    {
      id: "takedown-notice",
      title: "Filing a takedown notice",
      body: (
        <>
          <p>To be valid, your written notice must include all six of the following:</p>
          <ol>
            {DMCA_TAKEDOWN_ITEMS.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ol>
          <p>
            Send notices to <WriteTo ctx={ctx} subject="DMCA Notice" />. We
            usually act within two business days. Incomplete notices cannot be processed; we will tell you what is missing. Knowingly false claims
            can make you liable for damages under 17 U.S.C. § 512(f).
          </p>
        </>
      ),
    },
    {
      id: "counter-notification",
      title: "Counter-notification",
      body: (
        <>
          <p>
            If you believe material was blocked by mistake or misidentification, you can send a counter-notice. It must include all five of the
            following:
          </p>
          <ol>
            {DMCA_COUNTER_ITEMS.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ol>
          <p>
            We forward a valid counter-notice to the person who sent the original notice. Unless they tell us within that time that they have
            filed a court action to stop the infringement, we restore access to the material in 10 to 14 business days after receiving the
            counter-notice.
          </p>
        </>
      ),
    },
    {
      id: "fair-use",
      title: "Fair use",
      body: (
        <>
          <p>
            Before sending a notice, consider whether the use may be fair use. Under 17 U.S.C. § 107, courts weigh four factors:
          </p>
          <ol>
            {FAIR_USE_FACTORS.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ol>
          <p>No single factor decides the question. If you are unsure whether a use is infringing, seek legal advice before filing a notice.</p>
        </>
      ),
    },
    {
      id: "repeat-infringers",
      title: "Repeat infringers",
      body: (
        <p>
          We terminate, in appropriate circumstances, the accounts of users who repeatedly infringe. A user is a repeat infringer when we receive
          more than two valid notices concerning their activity within twelve months. A notice that is successfully countered or withdrawn does not
          count. Terminated users may not open a new account.
        </p>
      ),
    },
    {
      id: "international",
      title: "International users",
      body: (
        <p>
          We also act on copyright complaints from outside the United States, for example under the EU Digital Services Act and national copyright
          laws. Send the same information listed above; we handle such notices on the same timeline and tell the affected user how to contest
          them.
        </p>
      ),
    },
    {
      id: "changes",
      title: "Changes to this policy",
      body: (
        <p>
          We may update this policy, for example when the law changes. The date at the top of the page shows the current version. See also our{" "}
          <Link to="/terms-and-conditions">Terms and Conditions</Link> and <Link to="/disclaimer">Disclaimer</Link>.
        </p>
      ),
    },
    {
      id: "contact",
      title: "Contact",
      body: (
        <>
          <p>
            Our designated contact for copyright notices: <WriteTo ctx={ctx} /> (subject &quot;DMCA Notice&quot; or &quot;DMCA
            Counter-Notice&quot;).
          </p>
          <ContactLines ctx={ctx} topic="copyright" />
        </>
      ),
    },
  ];
}
