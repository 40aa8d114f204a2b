import { describe, expect, it } from "vitest";
import { isAdmin } from "./admin-access.ts";

const viewer = (email: string, emailVerified = true) => ({ user: { id: "u1", email, emailVerified } });

describe("isAdmin", () => {
  it("is the verified account with ADMIN_EMAIL, whatever the case", () => {
    expect(isAdmin(viewer("Ops@Example.com"), { ADMIN_EMAIL: "ops@example.COM" })).toBe(true);
  });

  it("is nobody else: an unverified address, another address, a visitor, or no ADMIN_EMAIL", () => {
    expect(isAdmin(viewer("ops@example.com", false), { ADMIN_EMAIL: "ops@example.com" })).toBe(false);
    expect(isAdmin(viewer("someone@example.com"), { ADMIN_EMAIL: "ops@example.com" })).toBe(false);
    expect(isAdmin(null, { ADMIN_EMAIL: "ops@example.com" })).toBe(false);
    expect(isAdmin(viewer("ops@example.com"), {})).toBe(false);
    expect(isAdmin(viewer(""), { ADMIN_EMAIL: "" })).toBe(false);
  });
});
