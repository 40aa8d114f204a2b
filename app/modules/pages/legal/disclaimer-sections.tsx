import { Link } from "react-router";
import { ContactLines, type LegalContext, type LegalSection } from "./legal-document.tsx";

/** Disclaimer: website, external links, fair use, service, user responsibility, liability, DMCA, changes, governing law, contact. */
export function disclaimerSections(ctx: LegalContext): LegalSection[] {
  const { siteName } = ctx;
  return [
    {
      id: "website",
      title: "Website disclaimer",
      body: (
        <p>
          The information on {siteName} is provided in good faith for general information. We keep the guides, the FAQ and the supported-sites list
          accurate, but platforms change often, so details such as available qualities can be out of date. Nothing on this site is legal advice.
        </p>
      ),
    },
    {
      id: "external-links",
      title: "External links",
      body: (
        <p>
          The site links to third-party websites, such as the platforms we support and our social media pages. We do not control those sites and
          are not responsible for their content, availability or privacy practices. A link is not an endorsement. Advertising on the site is
          marked as such and comes from an advertising network; we never show ads disguised as download buttons.
        </p>
      ),
    },
    {
      id: "fair-use",
      title: "Fair use",
      body: (
        <>
          <p>
            Copyright law in many countries allows limited use of protected works without permission, for example for criticism, commentary,
            news reporting, teaching or research (&quot;fair use&quot; in the United States, &quot;fair dealing&quot; or specific exceptions
            elsewhere). Whether a particular use is allowed depends on the facts and on the law where you are.
          </p>
          <p>
            Saving a video for private viewing is not automatically fair use. When you are unsure, ask the creator for permission or download only
            Content you own or that is published under a licence that allows copying.
          </p>
        </>
      ),
    },
    {
      id: "service",
      title: "About the service",
      body: (
        <p>
          {siteName} is a technical tool. When you request a file, our server fetches the publicly available video from the platform and streams it
          to you, converting the format on the fly when needed. We do not host, store, index or curate videos, and we are not affiliated with,
          endorsed by or sponsored by YouTube, Google or any other platform. Their names and trademarks belong to their owners and are used only to
          describe compatibility.
        </p>
      ),
    },
    {
      id: "user-responsibility",
      title: "Your responsibility",
      body: (
        <ul>
          <li>You decide which links to submit and what to do with the files you get.</li>
          <li>You are responsible for having the right to download the Content and for following the platform&apos;s terms of service.</li>
          <li>Do not use downloaded Content commercially or publish it without the owner&apos;s permission.</li>
          <li>Keep your device protected: a real video or audio file never asks you to install anything.</li>
        </ul>
      ),
    },
    {
      id: "liability",
      title: "Limitation of liability",
      body: (
        <p>
          To the extent the law allows, we are not liable for any loss or damage arising from the use of the site or of files downloaded with it,
          including claims by rights holders about how you used Content. The full limitation is set out in our{" "}
          <Link to="/terms-and-conditions">Terms and Conditions</Link>.
        </p>
      ),
    },
    {
      id: "dmca",
      title: "Copyright and DMCA",
      body: (
        <p>
          We respect the rights of creators. If you believe the service is being used to infringe your copyright, send us a notice as described in
          our <Link to="/dmca">DMCA policy</Link>; we will act on it promptly, for example by blocking the video from being processed.
        </p>
      ),
    },
    {
      id: "changes",
      title: "Changes to this disclaimer",
      body: <p>We may update this disclaimer as the service changes. The date at the top of the page shows when it last changed.</p>,
    },
    {
      id: "governing-law",
      title: "Governing law",
      body: (
        <p>
          This disclaimer is governed by the same law as our <Link to="/terms-and-conditions">Terms and Conditions</Link>: the law of the country
          where the operator of the service is established, without limiting the mandatory rights consumers have where they live.
        </p>
      ),
    },
    {
      id: "contact",
      title: "Contact",
      body: <ContactLines ctx={ctx} topic="this disclaimer" />,
    },
  ];
}
