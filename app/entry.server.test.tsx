import { createRequestHandler, Scripts, useLoaderData, type EntryContext, type ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { serverBuild } from "#tests/support/server-build.ts";
import handleRequest, { streamTimeout } from "./entry.server.tsx";

/** What the root route's loader returns: types the browser gets back whole (a date, a set) and markup to escape. */
const loaderData = () => ({ when: new Date(0), tags: new Set(["a", "b"]), text: "</script><script>alert(1)</script>", items: Array.from({ length: 300 }, (_, i) => ({ i })) });

function Root() {
  const data = useLoaderData<typeof loaderData>();
  return (
    <html lang="en">
      <head />
      <body>
        <p>{data.text}</p>
        <Scripts />
      </body>
    </html>
  );
}

/** A one-route build served by this entry; `alter` changes the router's context before the entry sees it. */
function buildWith(alter?: (context: EntryContext) => void): ServerBuild {
  const entry: typeof handleRequest = (request, status, headers, context, load) => {
    alter?.(context);
    return handleRequest(request, status, headers, context, load);
  };
  const root = { id: "root", path: "", module: "/root.js", hasLoader: true, hasAction: false, hasClientLoader: false, hasClientAction: false, hasErrorBoundary: false, imports: [] };
  return serverBuild({
    entry: { module: { default: entry, streamTimeout } },
    routes: { root: { id: "root", path: "", module: { default: Root, loader: loaderData } } },
    assets: { entry: { module: "/entry.js", imports: [] }, routes: { root }, url: "/manifest.js", version: "test" },
  });
}

async function render(build: ServerBuild): Promise<{ status: number; html: string; warnings: string[] }> {
  const warnings: string[] = [];
  const logger = { warn: (msg: string) => warnings.push(msg), error: (...args: unknown[]) => warnings.push(String(args.at(-1))) };
  const res = await createRequestHandler(build, "production")(new Request("http://localhost/"), { logger } as never);
  return { status: res.status, html: await res.text(), warnings };
}

/** the loader data as the page hands it to the browser: every `enqueue` payload, in order */
const handoff = (html: string) =>
  [...html.matchAll(/streamController\.enqueue\(("(?:[^"\\]|\\.)*")\);<\/script>/g)].map((m) => JSON.parse(m[1]!) as string).join("");

describe("entry.server", () => {
  it("renders the document with its loader data read first, in one piece, as the stream renderer would", async () => {
    const whole = await render(buildWith());
    // the same page through React's stream renderer: a context the entry does not recognise
    // (the router's render state already holds a cache of its own)
    const streamed = await render(buildWith((context) => ((context as unknown as { renderMeta: { streamCache?: object } }).renderMeta.streamCache = {})));

    expect(whole.status).toBe(200);
    expect(whole.warnings).toEqual([]);
    expect(streamed.warnings).toEqual(["the router's data handoff is not the one expected: rendering as a stream"]);
    expect(whole.html.startsWith("<!DOCTYPE html>")).toBe(true);
    // one script carries the loader data, and the stream to the browser is closed after it
    expect(whole.html.match(/streamController\.enqueue\(/g)).toHaveLength(1);
    expect(whole.html).toContain("streamController.close();</script>");
    expect(handoff(whole.html)).toBe(handoff(streamed.html));
    expect(handoff(whole.html)).toContain("alert(1)");
    // the markup is the same up to the data scripts, escaped text included
    const upToData = (html: string) => html.slice(0, html.indexOf("<script>window.__reactRouterContext.streamController"));
    expect(upToData(whole.html)).toBe(upToData(streamed.html));
    expect(whole.html).toContain("<p>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>");
    expect(whole.html).not.toContain("<script>alert(1)");
  });

  it("answers HEAD without a body", async () => {
    const res = await createRequestHandler(buildWith(), "production")(new Request("http://localhost/", { method: "HEAD" }), { logger: { warn() {} } } as never);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });
});
