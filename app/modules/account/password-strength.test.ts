import { expect, test } from "vitest";
import { weakPasswordReason } from "./password-strength.server.ts";

// issue 27 §17: the passwords the attack round got accepted, and their close relatives
test.each([
  ["12345678", "sequence"],
  ["password", "common"],
  ["aaaaaaaa", "repetitive"],
  ["        ", "blank"],
  ["\t \t \t \t", "blank"],
  ["87654321", "sequence"],
  ["abcdefgh", "sequence"],
  ["acegikmoq", "sequence"],
  ["qwertyuiop", "sequence"],
  ["abcabcabc", "repetitive"],
  ["12121212", "repetitive"],
  ["Password123!", "common"],
  ["P@ssw0rd", "common"],
  ["!!password2024", "common"],
  ["qwerty2024", "common"],
  ["1q2w3e4r", "common"],
  ["iloveyou!!", "common"],
  ["Summer2024!", "common"],
  ["vidfetch123", "common"],
] as const)("refuses %j (%s)", (password, reason) => {
  expect(weakPasswordReason(password)).toBe(reason);
});

test("refuses the account's own name or email name as the password", () => {
  const who = { email: "grace.hopper@example.com", name: "Grace Hopper" };
  expect(weakPasswordReason("grace.hopper1", who)).toBe("personal");
  expect(weakPasswordReason("GraceHopper!", who)).toBe("personal");
  expect(weakPasswordReason("GraceHopper!")).toBeNull();
});

test.each(["correct horse battery", "analytical-engine", "compiler-pioneer", "first password 1", "xK9#mQ2v", "a-brand-new-password", "second password 2"])(
  "accepts %j",
  (password) => {
    expect(weakPasswordReason(password, { email: "ada@example.com", name: "Ada Lovelace" })).toBeNull();
  },
);
