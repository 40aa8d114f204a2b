import { describe, expect, it } from "vitest";
import { recordingLogger, routeContext, unwrap } from "#tests/support/route-context.ts";
import { loader } from "./not-found.tsx";

describe("not-found loader", () => {
  it("answers 404, logs the missing path and the referring site (its origin only) and picks the most relevant page", async () => {
    const { logger, lines } = recordingLogger();
    const result = await loader({
      request: new Request("http://localhost/faqs?from=old-site", { headers: { referer: "https://search.example.org/results?q=private+words" } }),
      context: routeContext(null, { logger }),
      params: { "*": "faqs" },
    } as never);
    expect(await unwrap(result)).toEqual({
      status: 404,
      body: { path: "/faqs", redirectTo: { path: "/faq", title: "Frequently Asked Questions" } },
    });
    const warn = lines.find((l) => l.level === 40);
    expect(warn).toMatchObject({ msg: "page not found", path: "/faqs", referrer: "https://search.example.org", redirectTo: "/faq" });
    // what the visitor searched on the other site is theirs, not our log's
    expect(JSON.stringify(lines)).not.toContain("private");
  });

  it("falls back to the home page", async () => {
    const result = await loader({ request: new Request("http://localhost/qwxz"), context: routeContext(null), params: {} } as never);
    expect((await unwrap(result)).body).toMatchObject({ redirectTo: { path: "/" } });
  });
});
