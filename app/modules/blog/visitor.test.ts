import { describe, expect, it } from "vitest";
import { ensureVisitorId, readVisitorId, VISITOR_COOKIE, visitorCookieValue } from "./visitor.server.ts";

const SECRET = "test-secret-test-secret-test-secret-1234";
const withCookie = (cookie: string) => new Request("http://localhost/blog/x", { headers: { cookie } });
const id = "0b8f7c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e";

describe("visitor cookie", () => {
  it("reads a visitor id this server signed, among other cookies", () => {
    expect(readVisitorId(withCookie(`theme=dark; ${VISITOR_COOKIE}=${visitorCookieValue(id, SECRET)}; x=1`), SECRET)).toBe(id);
    expect(readVisitorId(new Request("http://localhost/"), SECRET)).toBeNull();
  });

  it("ignores an id the client made up or signed with another secret", () => {
    expect(readVisitorId(withCookie(`${VISITOR_COOKIE}=${id}`), SECRET)).toBeNull();
    expect(readVisitorId(withCookie(`${VISITOR_COOKIE}=${visitorCookieValue(id, "another-secret")}`), SECRET)).toBeNull();
    const forged = `${id}.${"A".repeat(22)}`;
    expect(readVisitorId(withCookie(`${VISITOR_COOKIE}=${forged}`), SECRET)).toBeNull();
  });

  it("treats a badly escaped or malformed cookie as absent instead of failing", () => {
    expect(readVisitorId(withCookie(`${VISITOR_COOKIE}=%E0%A4%A`), SECRET)).toBeNull();
    expect(readVisitorId(withCookie(`${VISITOR_COOKIE}=not-an-id`), SECRET)).toBeNull();
    expect(readVisitorId(withCookie(`${VISITOR_COOKIE}=${visitorCookieValue(id, SECRET)}%00`), SECRET)).toBeNull();
    const fresh = ensureVisitorId(withCookie(`${VISITOR_COOKIE}=%E0%A4%A`), { secure: true, secret: SECRET });
    expect(fresh.visitorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(fresh.setCookie).toMatch(new RegExp(`^${VISITOR_COOKIE}=${fresh.visitorId}\\.[A-Za-z0-9_-]{22}; Path=/; .*HttpOnly; SameSite=Lax; Secure$`));
    // the cookie it sets is read back as the same visitor
    const value = /=([^;]+)/.exec(fresh.setCookie ?? "")?.[1] ?? "";
    expect(readVisitorId(withCookie(`${VISITOR_COOKIE}=${value}`), SECRET)).toBe(fresh.visitorId);
  });
});
