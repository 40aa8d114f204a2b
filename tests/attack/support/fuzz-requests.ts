import { gzipSync } from "node:zlib";
import fc from "fast-check";
import type { Header } from "./raw-http.ts";
import {
  ACCEPTS,
  CONTENT_ENCODINGS,
  CONTENT_TYPES,
  COOKIES,
  HOSTS,
  ODD_METHODS,
  SPECIAL_STRINGS,
  headerValue,
  hostileText,
  looseEncode,
  percentEncode,
  urlComponent,
  utf8Bytes,
} from "./hostile.ts";
import { ARTICLE_SLUG, COMMENT_INTENTS, FORM_ACTIONS, MOCK_LINKS, OTHER_GET_ROUTES, PAGE_ROUTES, QUERY_KEYS } from "./targets.ts";

/** One generated request; `family` groups failures in the report. */
export interface FuzzRequest {
  family: string;
  method: string;
  target: string;
  headers: Header[];
  noHost?: boolean;
  body?: Buffer;
}

/* ------------------------------------------------------------------------------------------ */
/* OpenAPI-driven generation                                                                     */

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: readonly unknown[];
  properties?: Record<string, Schema>;
  required?: readonly string[];
  items?: Schema;
  maxLength?: number;
  /** a body of several shapes (POST /downloads: one link, or a list of links) */
  oneOf?: Schema[];
};

/** the field names a body may carry, from every shape it may take */
function bodyFields(doc: OpenApiDoc, body: Schema): string[] {
  const schema = resolveRef(doc, body);
  const shapes = [schema, ...(schema.oneOf ?? []).map((s) => resolveRef(doc, s))];
  const names = [...new Set(shapes.flatMap((s) => Object.keys(s.properties ?? {})))];
  return names.length > 0 ? names : ["url", "format"];
}
interface OpenApiOperation {
  path: string;
  method: string;
  params: Array<{ name: string; in: string; schema?: Schema }>;
  body?: Schema;
}
export interface OpenApiDoc {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, { parameters?: OpenApiOperation["params"]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
  components?: { schemas?: Record<string, Schema> };
}

export function operationsOf(doc: OpenApiDoc): OpenApiOperation[] {
  const ops: OpenApiOperation[] = [];
  for (const [p, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      ops.push({ path: p, method: method.toUpperCase(), params: op.parameters ?? [], body: op.requestBody?.content?.["application/json"]?.schema });
    }
  }
  return ops;
}

function resolveRef(doc: OpenApiDoc, s: Schema): Schema {
  if (!s.$ref) return s;
  const name = s.$ref.replace("#/components/schemas/", "");
  return doc.components?.schemas?.[name] ?? {};
}

/** Values shaped by a JSON schema (mostly), with hostile leaves and the occasional wrong type. */
function valueFor(doc: OpenApiDoc, raw: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolveRef(doc, raw);
  const wrong = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }), fc.double());
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (s.enum) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...s.enum) }, { weight: 2, arbitrary: hostileText() }, { weight: 1, arbitrary: wrong });
  if (types.includes("object") && s.properties && depth < 3) {
    const entries = Object.entries(s.properties);
    const shape: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [k, v] of entries) shape[k] = valueFor(doc, v, depth + 1);
    return fc.oneof(
      { weight: 6, arbitrary: fc.record(shape, { requiredKeys: [] }) },
      { weight: 2, arbitrary: fc.tuple(fc.record(shape), fc.dictionary(fc.constantFrom("__proto__", "constructor", "x", "url", "format"), fc.jsonValue({ maxDepth: 2 }))).map(([a, b]) => ({ ...b, ...a })) },
      { weight: 1, arbitrary: wrong },
    );
  }
  if (types.includes("string")) {
    const max = s.maxLength;
    const near = max
      ? fc.constantFrom(max - 1, max, max + 1).map((n) => `https://www.youtube.com/watch?v=${"a".repeat(Math.max(0, n - 32))}`)
      : fc.constant("");
    return fc.oneof(
      { weight: 3, arbitrary: hostileText() },
      { weight: 2, arbitrary: fc.constantFrom(...MOCK_LINKS) },
      { weight: 1, arbitrary: near },
      { weight: 1, arbitrary: wrong },
    );
  }
  return fc.oneof(hostileText(), wrong);
}

function pathWith(opPath: string, segment: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const names = [...opPath.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (!names.length) return fc.constant(opPath);
  return fc.array(segment, { minLength: names.length, maxLength: names.length }).map((vals) => {
    let out = opPath;
    names.forEach((n, i) => (out = out.replace(`{${n}}`, vals[i]!)));
    return out;
  });
}

function queryFrom(pairs: Array<[string, string]>): string {
  return pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}` : "";
}

/** Hostile query pairs for a list of known keys plus random ones. */
function queryPairs(keys: string[]): fc.Arbitrary<Array<[string, string]>> {
  const known = keys.length ? fc.tuple(fc.constantFrom(...keys), urlComponent()) : fc.tuple(urlComponent(), urlComponent());
  return fc.array(fc.oneof({ weight: 4, arbitrary: known }, { weight: 1, arbitrary: fc.tuple(urlComponent(), urlComponent()) }), { maxLength: 4 });
}

/* ------------------------------------------------------------------------------------------ */
/* Bodies                                                                                        */

const BOUNDARY = "----vidfetchFuzzBoundary7MA4YWxkTrZu0gW";

function multipart(fields: Array<[string, string]>, opts: { boundary: string; close: boolean; file?: Buffer }): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of fields) parts.push(Buffer.from(`--${opts.boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`, "utf8"));
  if (opts.file) {
    parts.push(Buffer.from(`--${opts.boundary}\r\nContent-Disposition: form-data; name="image"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`), opts.file, Buffer.from("\r\n"));
  }
  if (opts.close) parts.push(Buffer.from(`--${opts.boundary}--\r\n`));
  return Buffer.concat(parts);
}

/** A body for a form action: a content type, the bytes, maybe a Content-Encoding that lies. */
function formBody(fields: string[], json: boolean): fc.Arbitrary<{ headers: Header[]; body?: Buffer }> {
  const values = fc.array(fc.tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: hostileText() }), hostileText()), { maxLength: 8 });
  const urlencoded = fc.tuple(values, fc.constantFrom("application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=koi8-r", "application/x-www-form-urlencoded; charset=utf-16le"), fc.boolean()).map(
    ([pairs, type, loose]) => ({
      headers: [["Content-Type", type]] as Header[],
      // loose: malformed escapes and raw bytes reach the form parser as typed
      body: Buffer.from(pairs.map(([k, v]) => (loose ? `${looseEncode(k, true)}=${looseEncode(v, true)}` : `${percentEncode(k)}=${percentEncode(v)}`)).join("&"), "latin1"),
    }),
  );
  const multi = fc.tuple(values, fc.constantFrom("good", "wrong-boundary", "no-boundary", "unclosed", "garbage"), fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.uint8Array({ maxLength: 2048 }) })).map(([pairs, kind, file]) => {
    const body =
      kind === "garbage"
        ? Buffer.from(pairs.map(([k, v]) => `${k}${v}`).join("--\r\n"), "utf8")
        : multipart(pairs, { boundary: BOUNDARY, close: kind !== "unclosed", file: file ? Buffer.from(file) : undefined });
    const type =
      kind === "wrong-boundary" ? "multipart/form-data; boundary=not-the-one" : kind === "no-boundary" ? "multipart/form-data" : `multipart/form-data; boundary=${BOUNDARY}`;
    return { headers: [["Content-Type", type]] as Header[], body };
  });
  const jsonBody = fc
    .tuple(
      fc.oneof(
        { weight: 3, arbitrary: fc.dictionary(fc.constantFrom(...fields), fc.oneof(hostileText(), fc.jsonValue({ maxDepth: 2 }))).map((o) => JSON.stringify(o)) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? "null") },
        { weight: 1, arbitrary: fc.constantFrom("{", '{"email":', "[".repeat(3000), '{"__proto__":{"polluted":1}}', "\u0000", '{"email":"a@b.co"}garbage') },
      ),
      fc.constantFrom("application/json", "application/json; charset=koi8-r", "application/json; charset=utf-16", "text/plain"),
    )
    .map(([text, type]) => ({ headers: [["Content-Type", type]] as Header[], body: Buffer.from(text, "utf8") }));
  const odd = fc.tuple(fc.oneof(hostileText(), fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b).toString("latin1"))), fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined })).map(([text, type]) => ({
    headers: (type ? [["Content-Type", type]] : []) as Header[],
    body: Buffer.from(text, "latin1"),
  }));
  const none = fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined }).map((type) => ({ headers: (type ? [["Content-Type", type]] : []) as Header[], body: undefined }));
  const base = fc.oneof(
    { weight: 5, arbitrary: urlencoded },
    { weight: 3, arbitrary: multi },
    { weight: json ? 4 : 2, arbitrary: jsonBody },
    { weight: 2, arbitrary: odd },
    { weight: 1, arbitrary: none },
  );
  // a Content-Encoding that claims compression on a plain body, or a real gzip body
  return fc.tuple(base, fc.oneof({ weight: 7, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...CONTENT_ENCODINGS), fc.boolean()) })).map(([b, enc]) => {
    if (!enc || !b.body) return b;
    const [encoding, reallyGzip] = enc;
    return { headers: [...b.headers, ["Content-Encoding", encoding] as Header], body: reallyGzip && encoding === "gzip" ? gzipSync(b.body) : b.body };
  });
}

/* ------------------------------------------------------------------------------------------ */
/* Header mutations shared by every family                                                       */

function extraHeaders(): fc.Arbitrary<{ headers: Header[]; noHost: boolean }> {
  const host = fc.oneof(
    { weight: 12, arbitrary: fc.constant<string | null | undefined>(undefined) }, // a correct Host
    { weight: 1, arbitrary: fc.constant<string | null | undefined>(null) }, // none at all
    { weight: 2, arbitrary: fc.oneof(fc.constantFrom(...HOSTS), headerValue()) },
  );
  // present about once in `rarity` requests
  const optional = <T>(a: fc.Arbitrary<T>, rarity: number) => fc.oneof({ weight: rarity - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: a });
  return fc
    .record({
      host,
      cookie: optional(fc.oneof(fc.constantFrom(...COOKIES), headerValue().map((v) => `vf_visitor=${v}`)), 5),
      accept: optional(fc.constantFrom(...ACCEPTS), 3),
      // rare: a cross-site request is refused before the action runs (its own suite checks that)
      origin: optional(fc.constantFrom("https://evil.example", "null", "http://127.0.0.1", "\u00ff"), 25),
      fetchSite: optional(fc.constantFrom("cross-site", "same-origin", "same-site", "none", "bogus"), 20),
      forwarded: optional(headerValue(), 12),
      range: optional(fc.constantFrom("bytes=0-", "bytes=-1", "bytes=99999999999999999999-", "bytes=5-1", "bytes=0-1,2-3,4-5", "items=0-1", "bytes=%00"), 12),
      acceptEncoding: optional(fc.constantFrom("gzip", "br", "deflate", "*", "gzip;q=0", "x"), 8),
      language: optional(headerValue(), 12),
      referer: optional(fc.oneof(fc.constantFrom("//evil.example/x", "http://evil.example/", "/\\evil"), headerValue()), 20),
      custom: optional(fc.tuple(fc.constantFrom("X-Requested-With", "X-HTTP-Method-Override", "X-Remix-Response", "Expect", "If-None-Match", "Authorization"), headerValue()), 8),
    })
    .map((h) => {
      const headers: Header[] = [];
      if (typeof h.host === "string") headers.push(["Host", h.host]);
      if (h.cookie !== undefined) headers.push(["Cookie", h.cookie]);
      if (h.accept !== undefined) headers.push(["Accept", h.accept]);
      if (h.origin !== undefined) headers.push(["Origin", h.origin]);
      if (h.fetchSite !== undefined) headers.push(["Sec-Fetch-Site", h.fetchSite]);
      if (h.forwarded !== undefined) headers.push(["X-Forwarded-For", h.forwarded]);
      if (h.range !== undefined) headers.push(["Range", h.range]);
      if (h.acceptEncoding !== undefined) headers.push(["Accept-Encoding", h.acceptEncoding]);
      if (h.language !== undefined) headers.push(["Accept-Language", h.language]);
      if (h.referer !== undefined) headers.push(["Referer", h.referer]);
      // `Expect: 100-continue` is answered by Node itself; anything else would make it wait
      if (h.custom !== undefined && h.custom[0] !== "Expect") headers.push(h.custom);
      return { headers, noHost: h.host === null };
    });
}

function withExtras(family: string, method: fc.Arbitrary<string>, target: fc.Arbitrary<string>, body: fc.Arbitrary<{ headers: Header[]; body?: Buffer }>): fc.Arbitrary<FuzzRequest> {
  return fc.tuple(method, target, body, extraHeaders()).map(([m, t, b, x]) => ({
    family,
    method: m,
    target: t,
    headers: [...b.headers, ...x.headers],
    noHost: x.noHost,
    body: b.body,
  }));
}

const noBody = fc.constant<{ headers: Header[]; body?: Buffer }>({ headers: [] });

/* ------------------------------------------------------------------------------------------ */
/* Families                                                                                      */

export function apiRequests(doc: OpenApiDoc): fc.Arbitrary<FuzzRequest> {
  const base = new URL(doc.servers[0]?.url ?? "http://x/api/v1").pathname.replace(/\/+$/, "");
  const perOp = operationsOf(doc).map((op) => {
    const method = fc.oneof({ weight: 8, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: fc.constantFrom("GET", "POST", ...ODD_METHODS) });
    const queryParams = op.params.filter((p) => p.in === "query");
    const query = fc
      .tuple(
        fc.record(Object.fromEntries(queryParams.map((p) => [p.name, fc.oneof(urlComponent(), valueFor(doc, p.schema ?? {}).map((v) => percentEncode(String(v))))])), { requiredKeys: [] }),
        queryPairs([]),
      )
      .map(([known, extra]) => queryFrom([...Object.entries(known).map(([k, v]) => [k, v] as [string, string]), ...extra]));
    const target = fc.tuple(pathWith(`${base}${op.path}`, urlComponent()), query).map(([p, q]) => p + q);
    const body = op.body
      ? fc.oneof(
          { weight: 4, arbitrary: valueFor(doc, op.body).map((v) => ({ headers: [["Content-Type", "application/json"]] as Header[], body: Buffer.from(JSON.stringify(v) ?? "null", "utf8") })) },
          { weight: 3, arbitrary: formBody(bodyFields(doc, op.body), true) },
        )
      : fc.oneof({ weight: 4, arbitrary: noBody }, { weight: 1, arbitrary: formBody(["url", "format"], true) });
    return withExtras(`api ${op.method} ${op.path}`, method, target, body);
  });
  // paths the document does not list
  const unknown = withExtras(
    "api unknown path",
    fc.constantFrom("GET", "POST", ...ODD_METHODS),
    fc.tuple(fc.array(urlComponent(), { minLength: 1, maxLength: 3 }), queryPairs([])).map(([segs, q]) => `${base}/${segs.join("/")}${queryFrom(q)}`),
    fc.oneof(noBody, formBody(["url"], true)),
  );
  return fc.oneof(...perOp.map((arbitrary) => ({ weight: 3, arbitrary })), { weight: 1, arbitrary: unknown });
}

export function formRequests(): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    ...FORM_ACTIONS.map((action) => {
      const suffix = fc.oneof(
        { weight: 4, arbitrary: fc.constant("") },
        // React Router's single-fetch endpoint (what the browser's fetchers post to)
        { weight: 4, arbitrary: fc.constant(".data") },
        { weight: 1, arbitrary: fc.constantFrom("?index", ".data?_routes=routes%2Fblog-article", ".data?_routes=%ZZ", `.data?_routes=${"x,".repeat(200)}`, "/", "?_data=root") },
      );
      const method = fc.oneof({ weight: 10, arbitrary: fc.constant("POST") }, { weight: 1, arbitrary: fc.constantFrom("GET", ...ODD_METHODS) });
      // comment actions: the intents the article's forms send, so the like/report branches are reached
      const fields = action.path.startsWith("/blog/") ? [...action.fields, ...COMMENT_INTENTS] : action.fields;
      const body = action.path.startsWith("/blog/")
        ? fc.oneof(
            formBody(fields, false),
            fc
              .tuple(fc.constantFrom(...COMMENT_INTENTS), hostileText(), hostileText(), hostileText(), fc.boolean())
              .map(([intent, a, b, c, multi]) => {
                const pairs: Array<[string, string]> = [["intent", intent], ["commentId", a], ["name", b], ["email", "x@example.test"], ["content", c], ["parentId", a], ["formKey", b]];
                return multi
                  ? { headers: [["Content-Type", `multipart/form-data; boundary=${BOUNDARY}`]] as Header[], body: multipart(pairs, { boundary: BOUNDARY, close: true }) }
                  : { headers: [["Content-Type", "application/x-www-form-urlencoded"]] as Header[], body: Buffer.from(new URLSearchParams(pairs).toString()) };
              }),
          )
        : formBody(fields, Boolean(action.json));
      return withExtras(`form ${action.path}`, method, suffix.map((s) => action.path + s), body);
    }),
  );
}

export function pageRequests(): fc.Arbitrary<FuzzRequest> {
  const method = fc.oneof({ weight: 10, arbitrary: fc.constant("GET") }, { weight: 2, arbitrary: fc.constant("HEAD") }, { weight: 2, arbitrary: fc.constantFrom("POST", ...ODD_METHODS) });
  const known = fc.oneof(
    ...[...PAGE_ROUTES, ...OTHER_GET_ROUTES].map((route) =>
      fc.tuple(queryPairs(QUERY_KEYS[route] ?? []), fc.constantFrom("", "", "", ".data")).map(([q, data]) => `${route === "/" && data ? "/_root" : route}${data}${queryFrom(q)}`),
    ),
  );
  const hostilePath = fc.oneof(
    urlComponent().map((s) => `/${s}`), // the 404 page
    urlComponent().map((s) => `/blog/${s}`),
    urlComponent().map((s) => `/blog/${s}.data`),
    urlComponent().map((s) => `/blog/comment-images/${s}`),
    urlComponent().map((s) => `/assets/${s}`),
    urlComponent().map((s) => `/${ARTICLE_SLUG}/${s}`),
    fc.constantFrom("//evil.example", "/\\evil.example", "/..%2f..%2fetc%2fpasswd", "/%2e%2e/%2e%2e/etc/passwd", "/blog/%00", "/%00", "/%", "/a%ZZb", "/.data", "/*", "/blog/rss.xml%00", `/${"a".repeat(7000)}`, `/blog?${"q=x&".repeat(2000)}`),
  );
  return withExtras("page", method, fc.oneof({ weight: 3, arbitrary: known }, { weight: 2, arbitrary: hostilePath }), noBody);
}

/** Protocol-level oddities: requests a browser would never send. */
export function protocolRequests(): fc.Arbitrary<FuzzRequest> {
  const anyRoute = fc.constantFrom<string>(...PAGE_ROUTES, ...OTHER_GET_ROUTES, "/api/v1/openapi.json", ...FORM_ACTIONS.map((a) => a.path));
  const cases: Array<fc.Arbitrary<FuzzRequest>> = [
    // Host missing, empty, invalid, duplicated
    fc.tuple(anyRoute, fc.constantFrom("GET", "POST", "HEAD"), fc.oneof(fc.constantFrom(...HOSTS), headerValue())).map(([t, m, h]) => ({ family: "protocol bad Host", method: m, target: t, headers: [["Host", h]] as Header[], body: m === "POST" ? Buffer.from("email=a%40b.co") : undefined })),
    fc.tuple(anyRoute, fc.constantFrom("GET", "POST")).map(([t, m]) => ({ family: "protocol no Host", method: m, target: t, headers: [] as Header[], noHost: true })),
    anyRoute.map((t) => ({ family: "protocol two Hosts", method: "GET", target: t, headers: [["Host", "127.0.0.1"], ["Host", "evil.example"]] as Header[] })),
    // malformed cookies and header values
    fc.tuple(anyRoute, fc.oneof(fc.constantFrom(...COOKIES), headerValue())).map(([t, c]) => ({ family: "protocol cookie", method: "GET", target: t, headers: [["Cookie", c]] as Header[] })),
    // absolute-form and odd request targets
    fc.constantFrom("http://evil.example/", "http://127.0.0.1/blog", "*", "evil.example:443", "/blog#frag", "/blog?%", "/?url=%ZZ", "//", "/./", "/blog/..", "/api/v1/../../etc/passwd").map((t) => ({ family: "protocol target", method: "GET", target: t, headers: [] as Header[] })),
    fc.tuple(fc.constantFrom(...ODD_METHODS, "GET"), anyRoute).map(([m, t]) => ({ family: "protocol method", method: m, target: t, headers: [["Max-Forwards", "0"]] as Header[] })),
    // a lying Content-Encoding, duplicate Content-Type, charset the parser cannot decode
    fc.tuple(fc.constantFrom(...FORM_ACTIONS.map((a) => a.path), "/api/v1/resolve", "/api/v1/downloads"), fc.constantFrom(...CONTENT_ENCODINGS), fc.constantFrom("application/json", "application/x-www-form-urlencoded")).map(([t, enc, type]) => ({
      family: "protocol content-encoding",
      method: "POST",
      target: t,
      headers: [["Content-Type", type], ["Content-Encoding", enc]] as Header[],
      body: Buffer.from(type === "application/json" ? '{"url":"https://youtu.be/vidfetch720","email":"a@b.co"}' : "email=a%40b.co&url=x"),
    })),
    fc.constantFrom(...FORM_ACTIONS.map((a) => a.path), "/api/v1/resolve").map((t) => ({
      family: "protocol duplicate content-type",
      method: "POST",
      target: t,
      headers: [["Content-Type", "application/json"], ["Content-Type", "application/x-www-form-urlencoded"]] as Header[],
      body: Buffer.from("email=a%40b.co"),
    })),
    // a header near the size limit
    fc.tuple(anyRoute, fc.integer({ min: 1000, max: 12_000 })).map(([t, n]) => ({ family: "protocol big header", method: "GET", target: t, headers: [["X-Big", "a".repeat(n)]] as Header[] })),
    fc.tuple(anyRoute, fc.integer({ min: 50, max: 150 })).map(([t, n]) => ({ family: "protocol many headers", method: "GET", target: t, headers: Array.from({ length: n }, (_, i) => [`X-H${i}`, "v"] as Header) })),
    // SPECIAL_STRINGS as raw header values on a page
    fc.tuple(anyRoute, fc.constantFrom(...SPECIAL_STRINGS)).map(([t, s]) => ({ family: "protocol header bytes", method: "GET", target: t, headers: [["X-Forwarded-Host", utf8Bytes(s).replace(/[\r\n]/g, "")], ["User-Agent", utf8Bytes(s).replace(/[\r\n]/g, "")]] as Header[] })),
  ];
  return fc.oneof(...cases);
}

/* ------------------------------------------------------------------------------------------ */
/* Surfaces added in issue 27: the auth library, GET downloads, route data, the service worker   */

/** What a signed-in visitor brings: the session cookie of an account made for the run. */
export interface FuzzSession {
  cookie: string;
}

/** The session's cookie on about one request in `rarity`, else the usual hostile cookies. */
function maybeSession(session: FuzzSession | undefined, rarity: number): fc.Arbitrary<Header[]> {
  const none = fc.constant<Header[]>([]);
  if (!session) return none;
  return fc.oneof({ weight: rarity - 1, arbitrary: none }, { weight: 1, arbitrary: fc.constant<Header[]>([["Cookie", session.cookie]]) });
}

/** Adds `cookie` headers to a request (a second Cookie header is joined by Node, as browsers never send two). */
function withCookie(req: fc.Arbitrary<FuzzRequest>, cookie: fc.Arbitrary<Header[]>): fc.Arbitrary<FuzzRequest> {
  return fc.tuple(req, cookie).map(([r, c]) => (c.length ? { ...r, headers: [...r.headers.filter(([k]) => k.toLowerCase() !== "cookie"), ...c] } : r));
}

/** The endpoints better-auth answers over HTTP, and some of the forty it must not. */
const AUTH_ANSWERED = ["/api/auth/get-session", "/api/auth/sign-out", "/api/auth/verify-email"];
const AUTH_REFUSED = [
  "/api/auth/sign-in/email",
  "/api/auth/sign-up/email",
  "/api/auth/update-user",
  "/api/auth/change-email",
  "/api/auth/change-password",
  "/api/auth/verify-password",
  "/api/auth/request-password-reset",
  "/api/auth/reset-password",
  "/api/auth/send-verification-email",
  "/api/auth/list-sessions",
  "/api/auth/revoke-sessions",
  "/api/auth/delete-user",
  "/api/auth/ok",
  "/api/auth/error",
];
const AUTH_FIELDS = ["email", "password", "newPassword", "currentPassword", "name", "token", "callbackURL", "newEmail", "image"];

/** /api/auth/*: the three the site uses with hostile queries and bodies, the rest refused whatever comes. */
export function authRequests(session?: FuzzSession): fc.Arbitrary<FuzzRequest> {
  const path = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...AUTH_ANSWERED) },
    { weight: 3, arbitrary: fc.constantFrom(...AUTH_REFUSED) },
    { weight: 1, arbitrary: urlComponent().map((x) => `/api/auth/${x}`) },
  );
  const callback = fc.oneof(fc.constantFrom("/.//evil.example/x", "//evil.example", "https://evil.example/", "/%2e%2e//evil", "/dashboard", "javascript:alert(1)"), urlComponent());
  const query = fc
    .tuple(fc.option(urlComponent(), { nil: undefined }), fc.option(callback.map(percentEncode), { nil: undefined }), queryPairs(["token", "callbackURL", "disableCookieCache", "disableRefresh"]))
    .map(([token, cb, extra]) => queryFrom([...(token !== undefined ? [["token", token] as [string, string]] : []), ...(cb !== undefined ? [["callbackURL", cb] as [string, string]] : []), ...extra]));
  const method = fc.oneof({ weight: 8, arbitrary: fc.constantFrom("GET", "POST") }, { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) });
  const body = fc.oneof({ weight: 2, arbitrary: noBody }, { weight: 3, arbitrary: formBody(AUTH_FIELDS, true) });
  const req = withExtras("auth /api/auth", method, fc.tuple(path, query).map(([p, q]) => p + q), body);
  // never the run's own session on a sign-out: the rest of the run would be anonymous
  return withCookie(req, maybeSession(session, 3)).map((r) =>
    session && r.target.startsWith("/api/auth/sign-out") ? { ...r, headers: r.headers.filter(([k, v]) => !(k === "Cookie" && v === session.cookie)) } : r,
  );
}

/** GET /api/v1/download: mock links and hostile ones, every format id and some that are not. */
export function downloadRequests(doc: OpenApiDoc, session?: FuzzSession): fc.Arbitrary<FuzzRequest> {
  const base = new URL(doc.servers[0]?.url ?? "http://x/api/v1").pathname.replace(/\/+$/, "");
  const formats = (resolveRef(doc, { $ref: "#/components/schemas/FormatId" }).enum ?? ["mp4-720"]).map(String);
  const url = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...MOCK_LINKS).map(percentEncode) }, { weight: 2, arbitrary: urlComponent() }, { weight: 1, arbitrary: fc.constantFrom("ftp%3A%2F%2F127.0.0.1%2Fx", "file%3A%2F%2F%2Fetc%2Fpasswd", "http%3A%2F%2F127.0.0.1%3A22%2F", "") });
  const format = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...formats) }, { weight: 1, arbitrary: urlComponent() });
  const target = fc
    .tuple(fc.option(url, { nil: undefined }), fc.option(format, { nil: undefined }), queryPairs([]))
    .map(([u, f, extra]) => `${base}/download${queryFrom([...(u !== undefined ? [["url", u] as [string, string]] : []), ...(f !== undefined ? [["format", f] as [string, string]] : []), ...extra])}`);
  const method = fc.oneof({ weight: 10, arbitrary: fc.constant("GET") }, { weight: 1, arbitrary: fc.constantFrom("HEAD", "POST", ...ODD_METHODS) });
  return withCookie(withExtras("download GET /api/v1/download", method, target, noBody), maybeSession(session, 4));
}

/** React Router's route ids, for `_routes` (which loaders a `.data` request runs). */
const ROUTE_IDS = ["root", "routes/home", "routes/faq", "routes/blog", "routes/blog-article", "routes/dashboard", "routes/premium", "routes/login", "routes/not-found"];

/** Route data (`*.data`, single fetch) and the route manifest (`/__manifest`), signed in or not. */
export function routeDataRequests(session?: FuzzSession): fc.Arbitrary<FuzzRequest> {
  const route = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom<string>(...PAGE_ROUTES, `/blog/${ARTICLE_SLUG}`).map((r) => (r === "/" ? "/_root" : r)) },
    { weight: 1, arbitrary: urlComponent().map((x) => `/${x}`) },
  );
  const routes = fc.oneof(
    fc.array(fc.constantFrom(...ROUTE_IDS), { minLength: 1, maxLength: 4 }).map((ids) => ids.join(",")),
    urlComponent(),
    fc.constantFrom("%ZZ", ",".repeat(500), "root,".repeat(300), "__proto__", "constructor"),
  );
  const data = fc
    .tuple(route, fc.option(routes.map((r) => `_routes=${percentEncode(r)}`), { nil: undefined }), queryPairs(["q", "tag", "url", "returnTo", "index"]))
    .map(([r, rs, extra]) => `${r}.data${queryFrom([...(rs !== undefined ? [rs.split("=") as [string, string]] : []), ...extra])}`);
  const manifestPaths = fc.array(fc.oneof(fc.constantFrom<string>(...PAGE_ROUTES, `/blog/${ARTICLE_SLUG}`, "/tools/text"), urlComponent().map((x) => `/${x}`)), { minLength: 0, maxLength: 40 });
  const manifest = fc
    .tuple(manifestPaths, fc.oneof(fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), maxLength: 12 }), urlComponent()), fc.boolean())
    .map(([ps, version, many]) => `/__manifest?${[...(many ? ps : ps.slice(0, 3)).map((x) => `p=${percentEncode(x)}`), `version=${version}`].join("&")}`);
  const method = fc.oneof({ weight: 10, arbitrary: fc.constant("GET") }, { weight: 2, arbitrary: fc.constantFrom("HEAD", "POST", ...ODD_METHODS) });
  const req = withExtras("route data", method, fc.oneof({ weight: 3, arbitrary: data }, { weight: 1, arbitrary: manifest }), fc.oneof({ weight: 6, arbitrary: noBody }, { weight: 1, arbitrary: formBody(["intent", "email"], false) }));
  return withCookie(req, maybeSession(session, 3));
}

/** The service worker's script and the files it precaches (read from the script by the test). */
export function serviceWorkerRequests(precached: readonly string[]): fc.Arbitrary<FuzzRequest> {
  const files = ["/service-worker.js", "/offline.html", "/site.webmanifest", ...precached];
  const odd = fc.oneof(
    fc.constantFrom(...files).map((f) => `${f}/`),
    fc.constantFrom(...files).map((f) => `${f}%00`),
    fc.constantFrom(...files).map((f) => f.replace(/^\//, "//")),
    fc.constantFrom(...files).map((f) => f.replace(/\.(\w+)$/, ".%2e$1")),
    fc.constantFrom("/assets/..%2f..%2fpackage.json", "/assets/%2e%2e/%2e%2e/etc/passwd", "/service-worker.js.map", "/assets/", "/icons/..", "/.env", "/build/server/index.js"),
  );
  const target = fc.tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...files) }, { weight: 2, arbitrary: odd }), queryPairs(["v", "__WB_REVISION__"])).map(([f, q]) => f + queryFrom(q));
  const conditional = fc.oneof(
    fc.constant<Header[]>([]),
    fc.constantFrom<Header[]>([["If-None-Match", '"x"']], [["If-None-Match", "*"]], [["If-Modified-Since", "Thu, 01 Jan 1970 00:00:00 GMT"]], [["If-Modified-Since", "not a date"]], [["If-Range", '"x"'], ["Range", "bytes=0-10"]], [["Service-Worker", "script"]], [["Service-Worker-Navigation-Preload", "true"]]),
  );
  const method = fc.oneof({ weight: 10, arbitrary: fc.constantFrom("GET", "HEAD") }, { weight: 1, arbitrary: fc.constantFrom("POST", ...ODD_METHODS) });
  return fc.tuple(withExtras("service worker and precache", method, target, noBody), conditional).map(([r, extra]) => ({ ...r, headers: [...r.headers, ...extra] }));
}

/** The whole mix. Weights favour what is cheap for the server, so 20,000 requests fit in CI. */
export function allRequests(doc: OpenApiDoc, extra: { session?: FuzzSession; precached?: readonly string[] } = {}): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: 26, arbitrary: apiRequests(doc) },
    { weight: 28, arbitrary: formRequests() },
    { weight: 18, arbitrary: pageRequests() },
    { weight: 12, arbitrary: protocolRequests() },
    { weight: 5, arbitrary: authRequests(extra.session) },
    { weight: 3, arbitrary: downloadRequests(doc, extra.session) },
    { weight: 5, arbitrary: routeDataRequests(extra.session) },
    { weight: 3, arbitrary: serviceWorkerRequests(extra.precached ?? []) },
  );
}

/** The seed of this run: FUZZ_SEED when given (to replay), else a fresh one. */
export function fuzzSeed(): number {
  const given = process.env.FUZZ_SEED;
  if (given !== undefined && given !== "") {
    const n = Number(given);
    if (!Number.isInteger(n)) throw new Error(`FUZZ_SEED must be an integer, got ${given}`);
    return n | 0;
  }
  return (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
}

export function fuzzRuns(fallback: number): number {
  const n = Number(process.env.FUZZ_RUNS ?? fallback);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}
