import { Link } from "react-router";
import { HISTORY_RETENTION_DAYS } from "#app/modules/history/retention.ts";
import { JOB_FILE_TTL_HOURS, JOB_RECORD_RETENTION_DAYS } from "#app/modules/jobs/job-retention.ts";
import { NEWSLETTER_CONFIRM_DAYS } from "#app/modules/newsletter/newsletter-rules.ts";
import { CONTACT_MESSAGE_RETENTION_MONTHS, PLATFORM_REQUEST_RETENTION_MONTHS } from "#app/modules/retention/periods.ts";
import { ContactLines, type LegalContext, type LegalSection } from "./legal-document.tsx";

/** The privacy policy's 13 sections (spec §2 "Static pages"). */
export function privacyPolicySections(ctx: LegalContext): LegalSection[] {
  const { siteName } = ctx;
  return [
    {
      id: "introduction",
      title: "Introduction",
      body: (
        <>
          <p>
            This policy explains what personal data {siteName} (&quot;we&quot;, &quot;us&quot;) processes when you use the website at{" "}
            <a href={ctx.publicUrl}>{ctx.publicUrl}</a>, why, how long we keep it and which rights you have. We are the controller of that data.
          </p>
          <p>
            The short version: you can download videos without an account, we never store the videos you download from the page, and without an
            account we keep no record of what you downloaded. A scheduled download, or a ZIP you ask our server to prepare (premium features), is
            the one exception: its file is kept for {JOB_FILE_TTL_HOURS} hours so you can fetch it, then deleted. When you are signed in, your dashboard lists your downloads of the last{" "}
            {HISTORY_RETENTION_DAYS} days. Otherwise we only keep what you actively send us (a message, a request, a newsletter sign-up, an
            account) and the minimum our servers need to run safely.
          </p>
        </>
      ),
    },
    {
      id: "data-we-collect",
      title: "Data we collect",
      body: (
        <>
          <h3>When you download</h3>
          <ul>
            <li>
              <strong>The link you paste</strong> and the format you choose. Our server uses them to fetch the video from the platform and stream the
              file to you. Video details may be cached in memory for a few minutes so that choosing a second format is fast; they are not written to
              a database.
            </li>
            <li>
              <strong>Your IP address</strong>, held in server memory to apply fair-use limits (for example the number of requests per minute from
              one address). These counters expire within an hour and are not stored in logs.
            </li>
            <li>
              <strong>Technical request data</strong> in server logs: the page or API address requested (for a direct download link this includes
              the video link), the response status and the time. Logs do not contain your IP address or the content of the files you download.
            </li>
          </ul>
          <h3>When you contact us or fill in a form</h3>
          <ul>
            <li>Contact form: your name, email address, subject and message, and, when you write while signed in, your plan (messages from Pro and Ultimate members are marked priority).</li>
            <li>Platform requests: the platform name, any details you add and, if you give it, your email address.</li>
            <li>Newsletter: your email address, when you entered it and when you confirmed it.</li>
            <li>
              With each message or request we store a one-way, keyed hash of your IP address (not the address itself) so we can recognise abuse
              such as repeated spam.
            </li>
          </ul>
          <h3>When you create an account or subscribe</h3>
          <ul>
            <li>Your name, email address and a salted hash of your password (never the password itself).</li>
            <li>A session cookie that keeps you signed in.</li>
            <li>
              For premium plans: your plan, its start and renewal dates and the payment status. Card details are entered on our payment
              provider&apos;s page and never reach our servers.
            </li>
            <li>
              <strong>Your download history</strong>, only while you are signed in: for each download you start, the video&apos;s title, the
              format, the file size, whether it completed and when. Not the link, and never the file. It is listed in your dashboard so you
              can find and repeat a download, and it is deleted after {HISTORY_RETENTION_DAYS} days.
            </li>
            <li>
              <strong>Scheduled downloads and ZIPs prepared on the server</strong> (premium plans): the links (or the playlist link), the
              format and the time you chose, the job&apos;s status, and the file it made. We email you when the file is ready. The file is kept for {JOB_FILE_TTL_HOURS} hours, then deleted; the job&apos;s
              record is deleted {JOB_RECORD_RETENTION_DAYS} days after it ran or was canceled.
            </li>
            <li>
              <strong>API keys</strong> (Ultimate): each key&apos;s name, its first characters and a one-way hash of it (never the key itself),
              when it was made and last used, and how many requests it made each day, so your dashboard can show them. They are kept while
              your account exists, revoked keys included, and deleted with it.
            </li>
            <li>
              <strong>Download profiles</strong> (Ultimate): the name, format, subtitle language and file-name pattern you save, kept until you
              delete them or your account.
            </li>
            <li>
              <strong>White label</strong> (Ultimate): the sender name you set for the mails about jobs made with your API keys, kept until you
              clear it or delete your account.
            </li>
          </ul>
          <h3>Stored in your browser</h3>
          <p>
            Preferences and the offline download queue are kept in your browser&apos;s local storage. They stay on your device and you can clear
            them at any time in your browser settings.
          </p>
        </>
      ),
    },
    {
      id: "how-we-use-data",
      title: "How we use your data",
      body: (
        <ul>
          <li>To resolve the video links you submit and deliver the files you request.</li>
          <li>To answer your messages and act on copyright notices.</li>
          <li>To decide which platforms to support next, and to tell you when one you asked for is ready (only if you left your email).</li>
          <li>
            To send the newsletter you signed up for, once you have confirmed your address with the link in the confirmation email we send
            when it is entered. Every email, the confirmation included, has an unsubscribe link that works with one click, without an account.
          </li>
          <li>To run your account and premium subscription, including billing emails and the download history in your dashboard.</li>
          <li>To keep the service secure and available: rate limits, abuse prevention, fixing errors.</li>
        </ul>
      ),
    },
    {
      id: "legal-bases",
      title: "Legal bases for processing (EU and UK users)",
      body: (
        <>
          <p>If you are in the European Economic Area or the United Kingdom, we rely on these legal bases under the GDPR:</p>
          <ul>
            <li>
              <strong>Performance of a contract</strong> (Art. 6(1)(b)): delivering the downloads you request, running your account and your
              subscription.
            </li>
            <li>
              <strong>Legitimate interests</strong> (Art. 6(1)(f)): answering messages and platform requests, security logging and fair-use limits.
              Our interest is a reliable, abuse-free service; we keep this processing minimal.
            </li>
            <li>
              <strong>Consent</strong> (Art. 6(1)(a)): the newsletter and, where required, advertising cookies. You can withdraw consent at any time
              without affecting earlier processing.
            </li>
            <li>
              <strong>Legal obligation</strong> (Art. 6(1)(c)): keeping invoices and payment records as tax law requires.
            </li>
          </ul>
        </>
      ),
    },
    {
      id: "sharing",
      title: "How we share data",
      body: (
        <>
          <p>We do not sell your personal data. We share it only with:</p>
          <ul>
            <li>
              <strong>Video platforms</strong>: to fetch a video, our server (not your browser) contacts the platform. The platform sees our
              server&apos;s address, not yours.
            </li>
            <li>
              <strong>Our payment provider</strong> (Stripe) when you buy a premium plan, to process the payment.
            </li>
            <li>
              <strong>Hosting and email providers</strong> who run our servers and send our emails, under contracts that allow them to use the data
              only on our behalf.
            </li>
            <li>
              <strong>Authorities</strong>, when the law requires it, for example under a valid court order.
            </li>
          </ul>
        </>
      ),
    },
    {
      id: "ads-and-analytics",
      title: "Advertising and analytics",
      body: (
        <>
          <p>
            The free service is paid for by advertising. When ads are shown, they are delivered by an advertising provider (Google AdSense) which
            may set cookies or use similar technology to measure and personalise ads. Where the law requires consent, ads are only personalised
            after you agree. You can manage personalised advertising in your Google ad settings.
          </p>
          <p>
            Premium members see no ads, so the advertising provider is not loaded for them. We do not use third-party analytics or tracking
            pixels; we count page views from our own server logs.
          </p>
        </>
      ),
    },
    {
      id: "retention",
      title: "How long we keep data",
      body: (
        <ul>
          <li>Downloaded videos and audio: never stored; the stream ends when your download ends.</li>
          <li>
            Files of scheduled downloads (and of ZIPs prepared on the server): {JOB_FILE_TTL_HOURS} hours, then deleted automatically; the
            job&apos;s record (links, format, time, status): {JOB_RECORD_RETENTION_DAYS} days after it ran or was canceled.
          </li>
          <li>Download history (signed-in users only): {HISTORY_RETENTION_DAYS} days, then deleted automatically.</li>
          <li>Video details cache: a few minutes, in memory.</li>
          <li>Fair-use counters tied to your IP address: at most one hour, in memory.</li>
          <li>Server logs: 14 days.</li>
          <li>Contact messages: {CONTACT_MESSAGE_RETENTION_MONTHS} months after they reach us, then deleted automatically.</li>
          <li>Platform requests (and the email address you may give with one): {PLATFORM_REQUEST_RETENTION_MONTHS} months, then deleted automatically.</li>
          <li>
            Newsletter subscriptions: until you unsubscribe; the address is then deleted. An address that is not confirmed within{" "}
            {NEWSLETTER_CONFIRM_DAYS} days of our confirmation email is deleted. Deleting an account does not end a newsletter subscription: use
            the unsubscribe link in any newsletter email.
          </li>
          <li>
            Accounts: until you delete your account (Dashboard, Settings, &quot;Delete account&quot;). Deleting it removes the account, its sessions
            on every device, its subscription record, its download history, its API keys and its scheduled downloads with their files at once, cancels a paid
            subscription, and removes your name and email from comments you wrote with that address (their text stays in the discussion). Backups are overwritten within 30 days.
          </li>
          <li>Payment records: as long as tax law requires, usually up to 10 years.</li>
        </ul>
      ),
    },
    {
      id: "your-rights",
      title: "Your rights",
      body: (
        <>
          <p>Depending on where you live, you have the right to:</p>
          <ul>
            <li>access the personal data we hold about you and receive a copy;</li>
            <li>have inaccurate data corrected;</li>
            <li>have your data deleted;</li>
            <li>restrict or object to processing based on our legitimate interests;</li>
            <li>receive your data in a portable format;</li>
            <li>withdraw consent at any time;</li>
            <li>complain to your data protection authority.</li>
          </ul>
          <p>
            With an account you can use two of them yourself, at once: in your dashboard, Settings, &quot;Your data&quot; gives you a copy of
            everything we keep about your account as a JSON file, and &quot;Delete account&quot; deletes it as described above.
          </p>
          <p>
            California residents have the rights of the CCPA/CPRA, including to know, delete and correct personal information and to opt out of
            its sale or sharing. We do not sell personal information. To use any of these rights, contact us as described below; we answer within
            one month and may ask you to confirm your identity first.
          </p>
        </>
      ),
    },
    {
      id: "international-transfers",
      title: "International data transfers",
      body: (
        <p>
          Our service providers may process data in countries outside your own, including the United States. When personal data from the EEA or
          the UK is transferred to a country without an adequacy decision, we rely on the European Commission&apos;s Standard Contractual Clauses
          (and the UK addendum) or the EU-U.S. Data Privacy Framework where the provider is certified.
        </p>
      ),
    },
    {
      id: "security",
      title: "Security",
      body: (
        <p>
          All traffic to the site is encrypted with HTTPS. Passwords are stored only as salted hashes, sessions use secure, http-only cookies, and
          access to our databases is limited to the people who need it. Download links are signed and expire, so they cannot be reused by others.
          No system is perfectly secure; if a breach ever affects your data, we will inform you and the authorities as the law requires.
        </p>
      ),
    },
    {
      id: "children",
      title: "Children's privacy",
      body: (
        <p>
          {siteName} is not directed at children under 13, and we do not knowingly collect personal data from them. Accounts and premium plans are
          for adults or for minors with a parent&apos;s or guardian&apos;s permission. If you believe a child under 13 has sent us personal data,
          contact us and we will delete it.
        </p>
      ),
    },
    {
      id: "changes",
      title: "Changes to this policy",
      body: (
        <p>
          We update this policy when our service or the law changes. The date at the top shows the latest version. If a change affects how we use
          data you already gave us, we will tell account holders and newsletter subscribers by email before it takes effect.
        </p>
      ),
    },
    {
      id: "contact",
      title: "Contact us",
      body: (
        <>
          <ContactLines ctx={ctx} topic="this policy or your data" />
          <p>
            Please write &quot;Privacy&quot; in the subject line. See also our <Link to="/terms-and-conditions">Terms and Conditions</Link>.
          </p>
        </>
      ),
    },
  ];
}
