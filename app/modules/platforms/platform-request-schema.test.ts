import { describe, expect, it } from "vitest";
import { PLATFORM_REQUEST_MESSAGES, parsePlatformRequestForm } from "./platform-request-schema.ts";

describe("platform request schema", () => {
  it("needs only the platform name", () => {
    expect(parsePlatformRequestForm({ platformName: " Bilibili " })).toEqual({
      ok: true,
      data: { platformName: "Bilibili", email: null, details: "", website: "" },
    });
  });

  it("asks for the platform name when it is missing or blank", () => {
    for (const platformName of [undefined, "", "  "]) {
      expect(parsePlatformRequestForm({ platformName, email: "a@b.co" })).toEqual({
        ok: false,
        problem: { message: PLATFORM_REQUEST_MESSAGES.required, fields: ["platformName"] },
      });
    }
  });

  it("treats an empty email as none and normalises a given one", () => {
    expect(parsePlatformRequestForm({ platformName: "Odysee", email: "   " })).toMatchObject({ ok: true, data: { email: null } });
    expect(parsePlatformRequestForm({ platformName: "Odysee", email: " Me@Example.COM " })).toMatchObject({ ok: true, data: { email: "me@example.com" } });
  });

  it("validates the email when one is given", () => {
    expect(parsePlatformRequestForm({ platformName: "Odysee", email: "not an email" })).toEqual({
      ok: false,
      problem: { message: "Please enter a valid email address", fields: ["email"] },
    });
  });

  it("limits the details", () => {
    const r = parsePlatformRequestForm({ platformName: "Odysee", details: "x".repeat(2001) });
    expect(!r.ok && r.problem.fields).toEqual(["details"]);
  });
});
