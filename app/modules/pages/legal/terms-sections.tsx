import { Link } from "react-router";
import { ContactLines, type LegalContext, type LegalSection } from "./legal-document.tsx";

/** Terms and Conditions, every section the spec lists (30 days' notice for material changes). */
export function termsSections(ctx: LegalContext): LegalSection[] {
  const { siteName } = ctx;
  return [
    {
      id: "agreement",
      title: "Agreement to these terms",
      body: (
        <p>
          By using {siteName} at <a href={ctx.publicUrl}>{ctx.publicUrl}</a> (the &quot;Service&quot;) you agree to these Terms and Conditions. If
          you do not agree, please do not use the Service. If you use it on behalf of an organisation, you confirm that you may accept these terms
          for it.
        </p>
      ),
    },
    {
      id: "definitions",
      title: "Definitions",
      body: (
        <ul>
          <li>
            <strong>&quot;Service&quot;</strong>: the website, its download tools, the public API and all related features.
          </li>
          <li>
            <strong>&quot;User&quot;, &quot;you&quot;</strong>: anyone who uses the Service, with or without an account.
          </li>
          <li>
            <strong>&quot;Content&quot;</strong>: videos, audio, images, captions and other material available on third-party platforms.
          </li>
          <li>
            <strong>&quot;Premium plan&quot;</strong>: a paid subscription (Basic, Pro or Ultimate) with extra features.
          </li>
          <li>
            <strong>&quot;Platform&quot;</strong>: a third-party site such as YouTube from which Content is requested.
          </li>
        </ul>
      ),
    },
    {
      id: "use-of-service",
      title: "Use of the Service",
      body: (
        <>
          <p>
            The Service lets you save Content you are entitled to access for personal, non-commercial use: for example watching offline, keeping
            your own uploads, or Content published under a licence that allows copying. Our server fetches the Content from the Platform and
            streams it to you; we do not host or store it.
          </p>
          <p>You agree not to:</p>
          <ul>
            <li>download Content you have no right to copy, or distribute, sell or publicly show downloaded Content without the owner&apos;s permission;</li>
            <li>use the Service to get around paywalls, access restrictions or technical protection measures;</li>
            <li>send automated traffic beyond the fair-use limits, scrape the Service, or resell access to it (the Ultimate plan&apos;s API is the way to automate);</li>
            <li>attempt to disrupt, probe or attack the Service or use it to reach private networks;</li>
            <li>use the Service for anything illegal in your country or ours.</li>
          </ul>
          <p>You are responsible for complying with the Platforms&apos; own terms of service.</p>
        </>
      ),
    },
    {
      id: "ultimate",
      title: "The Ultimate plan: business use",
      body: (
        <>
          <p>
            The personal, non-commercial limit above does not apply to Ultimate members: while your Ultimate subscription is active, you may use
            the Service for your business or organisation, including through the API, for example to archive your organisation&apos;s own
            videos or Content you hold a licence for. This is a right to use the Service; it gives no rights in the Content itself, which still
            belongs to its owners and may only be copied and used as their licence allows. Access may not be resold or shared outside your
            organisation, and the fair-use and API limits still apply.
          </p>
          {ctx.accountManager ? (
            <p>
              Ultimate members have a dedicated account manager: messages you send through the contact form while signed in go to a named
              address reserved for Ultimate members, and are answered first.
            </p>
          ) : null}
        </>
      ),
    },
    {
      id: "accounts",
      title: "Account terms",
      body: (
        <ul>
          <li>You do not need an account to download. An account is required for premium plans.</li>
          <li>Give accurate information and keep your password secret. You are responsible for activity under your account.</li>
          <li>You must be at least 13 years old to create an account, and old enough to enter a contract where you live to buy a plan.</li>
          <li>One person per account. Tell us at once if you think someone else has used your account.</li>
          <li>You can delete your account at any time from your dashboard or by contacting us.</li>
        </ul>
      ),
    },
    {
      id: "subscriptions",
      title: "Subscriptions and payments",
      body: (
        <>
          <ul>
            <li>Premium plans cost $4.99 (Basic), $9.99 (Pro) or $19.99 (Ultimate) per month, plus any applicable taxes, and renew monthly until cancelled.</li>
            <li>New users may get a 7-day free trial. If you cancel during the trial you are not charged.</li>
            <li>Payments are processed by Stripe. Premium features are activated only after the payment is confirmed.</li>
            <li>You can cancel at any time. Your premium features stay active until the end of the paid billing period; we do not refund partial months, except where the law requires.</li>
            <li>Plan changes take effect at the next billing cycle.</li>
            <li>We may change prices with at least 30 days&apos; notice by email; the new price applies from your next renewal after that notice, and you can cancel before it.</li>
          </ul>
          <p>Consumers in the EU and UK keep their statutory right of withdrawal where it applies.</p>
        </>
      ),
    },
    {
      id: "intellectual-property",
      title: "Intellectual property",
      body: (
        <>
          <p>
            The Service&apos;s software, design, text, logo and name belong to us or our licensors. You may not copy or reuse them except as the law
            allows.
          </p>
          <p>
            Content you download belongs to its owners. Using the Service gives you no rights in that Content; any rights you have come from the
            owner or the law.
          </p>
        </>
      ),
    },
    {
      id: "fair-use",
      title: "Fair use of the Service",
      body: (
        <p>
          The Service has no download quota, but fair-use limits apply per network address so that one user cannot slow it down for everyone. When
          a limit is reached, further requests are refused for a short time with a message saying so. We may lower limits temporarily to protect
          the Service during attacks or outages. Paid plans are not subject to the per-address download limit; the limits on how many downloads
          run at the same time apply to everyone.
        </p>
      ),
    },
    {
      id: "dmca",
      title: "Copyright complaints (DMCA)",
      body: (
        <p>
          We respect copyright and respond to valid notices under the Digital Millennium Copyright Act and similar laws. Our{" "}
          <Link to="/dmca">DMCA policy</Link> explains how to send a notice or counter-notice and how we treat repeat infringers.
        </p>
      ),
    },
    {
      id: "warranties",
      title: "Disclaimer of warranties",
      body: (
        <p>
          The Service is provided &quot;as is&quot; and &quot;as available&quot;. Platforms change how they deliver video without notice, so we
          cannot promise that any particular video, format or quality will always be available, or that the Service will be uninterrupted or
          error-free. To the extent the law allows, we disclaim all implied warranties, including merchantability, fitness for a particular
          purpose and non-infringement.
        </p>
      ),
    },
    {
      id: "liability",
      title: "Limitation of liability",
      body: (
        <p>
          To the extent the law allows, we are not liable for indirect, incidental, special or consequential damages, lost data or lost profits
          arising from your use of the Service. Our total liability for any claim is limited to the amount you paid us in the 12 months before the
          claim, or $50 if you paid nothing. Nothing in these terms limits liability that cannot be limited by law, such as for intent or gross
          negligence.
        </p>
      ),
    },
    {
      id: "indemnification",
      title: "Indemnification",
      body: (
        <p>
          You agree to indemnify and hold us harmless from claims, damages and costs (including reasonable legal fees) arising from Content you
          download or distribute in breach of someone&apos;s rights, or from your breach of these terms.
        </p>
      ),
    },
    {
      id: "termination",
      title: "Termination",
      body: (
        <p>
          You may stop using the Service at any time. We may suspend or end your access, or close your account, if you seriously or repeatedly
          break these terms, including under our repeat-infringer policy. If we close a paid account without such a reason, we refund the unused
          part of your current billing period.
        </p>
      ),
    },
    {
      id: "privacy",
      title: "Privacy",
      body: (
        <p>
          Our <Link to="/privacy-policy">Privacy Policy</Link> explains what personal data we process and why. It is part of these terms.
        </p>
      ),
    },
    {
      id: "changes",
      title: "Changes to these terms",
      body: (
        <p>
          We may update these terms. For material changes we give at least 30 days&apos; notice, by email to account holders and by a notice on the
          site, before they take effect. The date at the top shows the current version. If you keep using the Service after a change takes
          effect, you accept the new terms; if you do not agree, you can cancel your plan and stop using the Service.
        </p>
      ),
    },
    {
      id: "governing-law",
      title: "Governing law",
      body: (
        <p>
          These terms are governed by the laws of the country where the operator of the Service is established, without regard to its
          conflict-of-law rules. Courts there have jurisdiction over disputes. If you are a consumer, you also keep the protection of the
          mandatory laws of the country where you live and may bring a claim there.
        </p>
      ),
    },
    {
      id: "contact",
      title: "Contact",
      body: <ContactLines ctx={ctx} topic="these terms" />,
    },
  ];
}
