import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { HISTORY_RETENTION_DAYS } from "#app/modules/history/retention.ts";
import { JOB_FILE_TTL_HOURS, JOB_RECORD_RETENTION_DAYS } from "#app/modules/jobs/job-retention.ts";
import { CONTACT_MESSAGE_RETENTION_MONTHS, PLATFORM_REQUEST_RETENTION_MONTHS } from "#app/modules/retention/periods.ts";
import { privacyPolicySections } from "./privacy-policy-sections.tsx";

const ctx = { siteName: "TestTube", contactEmail: "help@testtube.example", publicUrl: "https://testtube.example" };

function text(node: React.ReactNode): string {
  const router = createMemoryRouter([{ path: "/", element: node }]);
  return renderToStaticMarkup(<RouterProvider router={router} />)
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&apos;/g, "'")
    .replace(/\s+/g, " ");
}

/** The dashboard keeps a signed-in user's download history: the policy says so, and for how long. */
describe("the privacy policy on download history", () => {
  const sections = Object.fromEntries(privacyPolicySections(ctx).map((s) => [s.id, text(s.body)]));

  it("never says no history is kept", () => {
    for (const body of Object.values(sections)) expect(body).not.toMatch(/keep a history|no history/i);
  });

  it("says what is kept, for whom, and that it is deleted after the retention period", () => {
    expect(sections["data-we-collect"]).toMatch(/download history/i);
    expect(sections["data-we-collect"]).toMatch(/signed in/i);
    expect(sections["data-we-collect"]).toContain(`deleted after ${HISTORY_RETENTION_DAYS} days`);
    expect(sections.retention).toContain(`Download history (signed-in users only): ${HISTORY_RETENTION_DAYS} days`);
  });

  it("says the files of jobs (a scheduled download, a ZIP prepared on the server) are the ones stored, and for how long (the cleanup and sweep's constants)", () => {
    expect(sections.introduction ?? Object.values(sections)[0]).toContain(`kept for ${JOB_FILE_TTL_HOURS} hours`);
    expect(sections.introduction ?? Object.values(sections)[0]).toContain("or a ZIP you ask our server to prepare");
    expect(sections.retention).toContain(`Files of scheduled downloads (and of ZIPs prepared on the server): ${JOB_FILE_TTL_HOURS} hours, then deleted automatically`);
    expect(sections.retention).toContain(`${JOB_RECORD_RETENTION_DAYS} days after it ran or was canceled`);
  });
});

/** The retention sweep (modules/retention) deletes by the same constants the policy quotes. */
describe("the privacy policy on messages and requests", () => {
  it("quotes the periods the sweep deletes by, counted from arrival (no reply is tracked)", () => {
    const retention = text(privacyPolicySections(ctx).find((s) => s.id === "retention")!.body);
    expect(retention).toContain(`Contact messages: ${CONTACT_MESSAGE_RETENTION_MONTHS} months after they reach us, then deleted automatically`);
    expect(retention).toContain(`${PLATFORM_REQUEST_RETENTION_MONTHS} months, then deleted automatically`);
    expect(retention).not.toMatch(/last reply|once we have told you/);
  });
});

/** Without CONTACT_EMAIL there is no address to print: the texts send visitors to the form. */
describe("legal texts without a contact address", () => {
  it("point to the contact form and print no mail link", async () => {
    const { dmcaSections } = await import("./dmca-sections.tsx");
    const noEmail = { ...ctx, contactEmail: undefined };
    const router = createMemoryRouter([{ path: "/", element: <>{[...dmcaSections(noEmail), ...privacyPolicySections(noEmail)].map((s) => <div key={s.id}>{s.body}</div>)}</> }]);
    const html = renderToStaticMarkup(<RouterProvider router={router} />);
    expect(html).not.toContain("mailto:");
    expect(html).not.toContain("undefined");
    expect(html).toContain('href="/contact-us"');
    expect(html).toMatch(/contact form<\/a> with &quot;DMCA Notice&quot; as the subject/);
  });
});

describe("the privacy policy on account deletion and export", () => {
  it("names where a user deletes the account and takes a copy, which the dashboard offers", () => {
    const sections = Object.fromEntries(privacyPolicySections(ctx).map((s) => [s.id, text(s.body)]));
    expect(sections.retention).toMatch(/Delete account/);
    expect(sections["your-rights"]).toMatch(/copy of everything we keep about your account as a JSON file/);
  });
});
