import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ACCOUNT_ERRORS } from "#app/modules/account/account-messages.ts";
import { CONTACT_ERRORS } from "#app/modules/contact/contact-schema.ts";
import { NEWSLETTER_ERRORS } from "#app/modules/newsletter/newsletter-messages.ts";
import { PLATFORM_REQUEST_ERRORS } from "#app/modules/platforms/platform-request-schema.ts";
import { API_ERROR_CATALOGUES, API_ERROR_CODES } from "./api-errors.ts";
import { openApiDocument } from "./openapi.ts";

/**
 * Error codes are what API clients switch on: each is defined once, and every code the JSON API
 * can answer (the catalogues in api-errors.ts) is listed in docs/api.md's "Error codes" table,
 * with its status, and in the OpenAPI document. Page-only catalogues (the account forms', the
 * stored forms' and the newsletter's codes) take part in the uniqueness check only; comment
 * messages carry no codes.
 */
const PAGE_ONLY_CATALOGUES = { account: ACCOUNT_ERRORS, contact: CONTACT_ERRORS, platformRequest: PLATFORM_REQUEST_ERRORS, newsletter: NEWSLETTER_ERRORS };

function docsTable(): Map<string, number> {
  const doc = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");
  const section = doc.split(/^## Error codes$/m)[1]?.split(/^## /m)[0] ?? "";
  const rows = new Map<string, number>();
  for (const [, code, status] of section.matchAll(/^\| `([^`]+)` \| (\d{3}) \|/gm)) rows.set(code!, Number(status));
  return rows;
}

describe("error codes", () => {
  it("are unique across every catalogue", () => {
    const all = [...Object.values(API_ERROR_CATALOGUES), ...Object.values(PAGE_ONLY_CATALOGUES)].flatMap((c) => Object.keys(c));
    const repeated = all.filter((code, i) => all.indexOf(code) !== i);
    expect(repeated).toEqual([]);
  });

  it("that the API answers are listed in docs/api.md with their status", () => {
    const documented = docsTable();
    const expected = Object.values(API_ERROR_CATALOGUES).flatMap((c) => Object.entries(c).map(([code, e]) => [code, e.status]));
    expect(expected.filter(([code, status]) => documented.get(code as string) !== status)).toEqual([]);
    expect([...documented.keys()].filter((code) => !API_ERROR_CODES.includes(code))).toEqual([]);
  });

  it("that the API answers are enumerated in the OpenAPI document", () => {
    const enumerated: readonly string[] = openApiDocument("http://localhost").components.schemas.Error.properties.error.properties.code.enum;
    expect([...enumerated].sort()).toEqual([...API_ERROR_CODES].sort());
  });
});
