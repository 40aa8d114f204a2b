import { describe, expect, it } from "vitest";
import { CONTACT_MESSAGES, parseContactForm } from "./contact-schema.ts";

const valid = { name: "Ada Lovelace", email: "ada@example.com", subject: "Hello", message: "The MP3 button works great.", website: "" };

describe("contact form schema", () => {
  it("accepts a complete message and trims it", () => {
    const r = parseContactForm({ ...valid, name: "  Ada  ", message: " hi there \n" });
    expect(r).toEqual({ ok: true, data: { ...valid, name: "Ada", message: "hi there" } });
  });

  it("treats the subject as optional", () => {
    const r = parseContactForm({ name: "Ada", email: "ada@example.com", message: "hi" });
    expect(r.ok && r.data.subject).toBe("");
  });

  it.each(["name", "email", "message"] as const)("asks for all required fields when %s is empty or blank", (field) => {
    for (const value of ["", "   ", undefined]) {
      const r = parseContactForm({ ...valid, [field]: value });
      expect(r).toEqual({ ok: false, problem: { message: "Please fill out all required fields", fields: [field] } });
    }
  });

  it("names every missing field at once", () => {
    const r = parseContactForm({});
    expect(!r.ok && r.problem.fields.sort()).toEqual(["email", "message", "name"]);
    expect(!r.ok && r.problem.message).toBe(CONTACT_MESSAGES.required);
  });

  it("rejects a malformed email address", () => {
    const r = parseContactForm({ ...valid, email: "ada-at-example" });
    expect(r).toEqual({ ok: false, problem: { message: "Please enter a valid email address", fields: ["email"] } });
  });

  it("rejects overlong messages", () => {
    const r = parseContactForm({ ...valid, message: "x".repeat(5001) });
    expect(!r.ok && r.problem.fields).toEqual(["message"]);
  });

  it("keeps the honeypot value so the server can discard bot posts", () => {
    const r = parseContactForm({ ...valid, website: "http://spam.example" });
    expect(r.ok && r.data.website).toBe("http://spam.example");
  });
});
