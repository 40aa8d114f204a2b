import { describe, expect, it } from "vitest";
import { personalCacheControl } from "./personal-responses.ts";

const SESSION = "vidfetch.session_token=abc.def";
const base = { cookie: undefined as string | undefined, pathname: "/faq", setsCookie: false, ownCacheControl: null as string | null, page: true };

describe("what is rendered for one visitor", () => {
  it("a page or route data for a session is private, no-store, whatever the route chose", () => {
    expect(personalCacheControl({ ...base, cookie: SESSION })).toBe("private, no-store");
    expect(personalCacheControl({ ...base, cookie: `theme=dark; __Secure-${SESSION}`, pathname: "/faq.data", page: false })).toBe("private, no-store");
    expect(personalCacheControl({ ...base, cookie: SESSION, pathname: "/blog.data", page: false, ownCacheControl: "public, max-age=60" })).toBe("private, no-store");
  });

  it("an answer that sets a cookie is personal too", () => {
    expect(personalCacheControl({ ...base, pathname: "/_root.data", page: false, setsCookie: true })).toBe("private, no-store");
  });

  it("a resource route keeps a choice it made for everyone; without one it is private for a session", () => {
    expect(personalCacheControl({ ...base, cookie: SESSION, pathname: "/robots.txt", page: false, ownCacheControl: "public, max-age=3600" })).toBeUndefined();
    expect(personalCacheControl({ ...base, cookie: SESSION, pathname: "/newsletter", page: false })).toBe("private, no-store");
  });

  it("an anonymous request leaves the decision to the page cache", () => {
    expect(personalCacheControl(base)).toBeUndefined();
    expect(personalCacheControl({ ...base, cookie: "theme=dark", pathname: "/faq.data", page: false })).toBeUndefined();
  });
});
