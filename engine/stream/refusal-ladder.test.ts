import { describe, expect, it } from "vitest";
import { isEngineError } from "../errors.ts";
import { createHostRefusals } from "../outbound/host-refusals.ts";
import { createRefusalLadder, TOKEN_FREE_REQUEST_BYTES } from "./refusal-ladder.ts";

const URL = "https://rr1---sn-x.googlevideo.com/videoplayback?c=VISIONOS";
const roomy = () => createHostRefusals({ capacity: 100, refillPerSecond: 0, now: () => 0 });
const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (err) {
    return isEngineError(err) ? err.code : err;
  }
};

describe("createRefusalLadder", () => {
  it("a refused long range shrinks every later request to a piece, once; a refused piece needs a fresh URL", () => {
    const ladder = createRefusalLadder({ hosts: roomy() });
    expect(ladder.pieceBytes).toBe(Infinity);
    expect(ladder.refused(URL, 8 * 1024 * 1024, 0)).toBe(true);
    expect(ladder.pieceBytes).toBe(TOKEN_FREE_REQUEST_BYTES);
    // a long request asked before the shrink (the other input's) is asked again as pieces too
    expect(ladder.refused(URL, null, 0)).toBe(true);
    expect(ladder.refused(URL, TOKEN_FREE_REQUEST_BYTES, 1024)).toBe(false);
    expect(ladder.refusals).toBe(3);
  });

  it("a refused request no longer than a piece goes straight to a fresh URL", () => {
    const ladder = createRefusalLadder({ hosts: roomy(), pieceBytes: 1000 });
    expect(ladder.refused(URL, 1000, 0)).toBe(false);
    expect(ladder.pieceBytes).toBe(Infinity);
  });

  it("fails as refused once the download's budget is spent", () => {
    const ladder = createRefusalLadder({ hosts: roomy(), maxRefusals: 2 });
    ladder.charge(URL, 0);
    ladder.charge(URL, 0);
    expect(codeOf(() => ladder.charge(URL, 0))).toBe("upstream.refused");
  });

  it("fails as refused once the host's budget is spent, whichever download spent it", () => {
    const hosts = createHostRefusals({ capacity: 1, refillPerSecond: 0, now: () => 0 });
    createRefusalLadder({ hosts }).charge(URL, 0);
    expect(codeOf(() => createRefusalLadder({ hosts }).refused(URL, null, 0))).toBe("upstream.refused");
  });
});
