import fc from "fast-check";

/**
 * Building blocks of hostile input: strings that have broken servers before (malformed percent
 * escapes, NUL and control bytes, lone surrogates, bidi overrides, huge-ish values), and ways of
 * placing them in a URL or a header. Requests are written as bytes (latin1 strings here), so a
 * value can reach the server exactly as an attacker would send it.
 */
export const SPECIAL_STRINGS = [
  "",
  " ",
  "%",
  "%%",
  "%ZZ",
  "%E0%A4%A",
  "%C0%AF",
  "%FF%FE",
  "%00",
  "%0d%0aSet-Cookie:%20x=1",
  "%u0041",
  "\u0000",
  "a\u0000b",
  "\r\n",
  "\n",
  "\t",
  "\u0007\u0008",
  "\u001b[31mred",
  "\u007f",
  "\u0085",
  "\u202e\u2066txt.exe",
  "\u2028\u2029",
  "\ufeff",
  "\ud800",
  "\udfff",
  "\uffff",
  "💥",
  "𝕏𝕐",
  "é",
  "ﬀİı",
  "../../../etc/passwd",
  "..%2f..%2f..%2fetc%2fpasswd",
  "..\\..\\windows",
  "<script>alert(1)</script>",
  "'\"><img src=x onerror=alert(1)>",
  "${7*7}",
  "{{7*7}}",
  "' OR 1=1 --",
  "\\",
  "//evil.example",
  "/\\evil.example",
  "javascript:alert(1)",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "prototype",
  "NaN",
  "-1",
  "0",
  "1e309",
  "0x10",
  "99999999999999999999999999999",
  "https://www.youtube.com/watch?v=vidfetchAll",
  "https://youtu.be/vidfetch720",
  "https://media.example.test/files/sample-360p.mp4",
  "http://127.0.0.1:1/",
  "http://[::1]/",
  "http://169.254.169.254/latest/meta-data/",
  "file:///etc/passwd",
  "mp4-720",
  "mp3-320",
  "a@b.co",
  "user@example.test",
  "reply-00000000-0000-0000-0000-000000000000",
  "00000000-0000-0000-0000-000000000000",
  "comment",
  "like",
  "report",
];

/**
 * Any code point, lone surrogates included. (fast-check's full-range string unit builds a
 * million-entry lookup table first, which cost seconds per run.)
 */
const anyCodeUnit = fc
  .oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0x7ff }), fc.integer({ min: 0x800, max: 0xffff }), fc.integer({ min: 0x10000, max: 0x10ffff }))
  .map((cp) => String.fromCodePoint(cp));

/**
 * Any text, biased towards the dangerous. Built once and shared: fast-check builds a large
 * lookup table per full-range string arbitrary, which made generation the bottleneck.
 */
let hostileTextArbitrary: fc.Arbitrary<string> | undefined;
export function hostileText(): fc.Arbitrary<string> {
  return (hostileTextArbitrary ??= fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
    { weight: 3, arbitrary: fc.array(anyCodeUnit, { maxLength: 40 }).map((a) => a.join("")) },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 24 }) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    {
      weight: 2,
      arbitrary: fc.array(fc.oneof(fc.constantFrom(...SPECIAL_STRINGS), fc.string({ maxLength: 6 })), { minLength: 2, maxLength: 6 }).map((a) => a.join("")),
    },
    // huge-ish, yet under every body limit a form could reasonably have
    {
      weight: 1,
      arbitrary: fc
        .record({ unit: fc.constantFrom("a", "é", "💥", "%", "\u0000", "<b>", "%ZZ", " "), n: fc.integer({ min: 1000, max: 20_000 }) })
        .map(({ unit, n }) => unit.repeat(n)),
    },
  ));
}

/** UTF-8 bytes of a string as a latin1 "byte string" (what goes on the wire). */
export function utf8Bytes(s: string): string {
  return Buffer.from(s, "utf8").toString("latin1");
}

const hex = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;

/** Proper percent-encoding (lone surrogates become U+FFFD first, where encodeURIComponent would throw). */
export function percentEncode(s: string): string {
  return encodeURIComponent(Buffer.from(s, "utf8").toString("utf8"));
}

/**
 * Encoding that leaves `%` alone (so malformed escapes arrive as typed) and escapes only what
 * cannot appear in a request line at all. `raw` also leaves non-ASCII bytes unescaped.
 */
// eslint-disable-next-line no-control-regex -- control bytes are exactly what must be escaped
const NOT_IN_REQUEST_LINE = /[\x00-\x20\x7f#]/g;
// eslint-disable-next-line no-control-regex -- as above, plus every non-ASCII byte
const NOT_IN_REQUEST_LINE_OR_ASCII = /[\x00-\x20\x7f#\x80-\xff]/g;

export function looseEncode(s: string, raw = false): string {
  return utf8Bytes(s).replace(raw ? NOT_IN_REQUEST_LINE : NOT_IN_REQUEST_LINE_OR_ASCII, hex);
}

/** A value placed in a URL: properly encoded, loosely (malformed escapes survive), or raw bytes. */
let urlComponentArbitrary: fc.Arbitrary<string> | undefined;
export function urlComponent(): fc.Arbitrary<string> {
  // at most 1,000 characters: encoded, that keeps the request line under Node's 16 KB limit,
  // so the value reaches the app instead of Node's 431
  const text = hostileText().map((s) => s.slice(0, 1000));
  return (urlComponentArbitrary ??= fc.oneof(
    { weight: 4, arbitrary: text.map(percentEncode) },
    { weight: 4, arbitrary: text.map((s) => looseEncode(s)) },
    { weight: 1, arbitrary: text.map((s) => looseEncode(s, true)) },
  ));
}

/** A header value as bytes; CR and LF are left out (they would end the header, not test it). */
let headerValueArbitrary: fc.Arbitrary<string> | undefined;
export function headerValue(): fc.Arbitrary<string> {
  // short enough that most requests stay under Node's 16 KB header limit and reach the app
  return (headerValueArbitrary ??= hostileText().map((s) => utf8Bytes(s.slice(0, 300)).replace(/[\r\n]/g, "")));
}

// CONNECT is left out: Node closes such connections itself, as a server that is no proxy should.
export const ODD_METHODS = ["TRACE", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "PROPFIND", "PURGE", "SEARCH", "QUERY", "M-SEARCH"];

export const CONTENT_TYPES = [
  "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded; charset=koi8-r",
  "application/x-www-form-urlencoded; charset=utf-16le",
  "application/json",
  "application/json; charset=koi8-r",
  "application/json; charset=utf-16",
  "text/plain",
  "text/plain; charset=iso-8859-1",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "multipart/form-data; boundary=\"unterminated",
  "application/octet-stream",
  "application/xml",
  "text/html",
  "*/*",
  "a/b/c;;;==",
  "application/x-www-form-urlencoded, application/json",
  "application/vnd.api+json",
  "application/merge-patch+json",
];

export const ACCEPTS = ["text/html", "application/json", "*/*", "text/html,application/json", "text/x-script", "image/*", "", "\u00ff\u00fe"];

export const CONTENT_ENCODINGS = ["gzip", "deflate", "br", "identity", "x-unknown", "gzip, gzip", "zstd"];

export const HOSTS = ["", "[::bad", "a b", "evil.example", "127.0.0.1:99999", "localhost:abc", "%00", "..", "xn--", "::1", "[::1]:1", "\u00e9.example", "a".repeat(300), "127.0.0.1:3000@evil.example"];

export const COOKIES = [
  "vf_visitor=%E0%A4%A",
  "vf_visitor=%",
  "vf_visitor=%00",
  "vf_visitor=",
  "vf_visitor=00000000-0000-0000-0000-000000000000",
  "vf_visitor=a; vf_visitor=b",
  "=; ;;; =x",
  "vf_visitor=\u00ff\u00fe",
  "__proto__=1; constructor=2",
  `vf_visitor=${"a".repeat(4000)}`,
];
