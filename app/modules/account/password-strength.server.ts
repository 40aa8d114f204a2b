import { COMMON_PASSWORD_STEMS, COMMON_PASSWORDS } from "./common-passwords.ts";

/**
 * Is this password one a guesser tries first (issue 27 §17)? Checked on the server wherever a
 * password is set (signup, reset, and any better-auth path that sets one: auth.server.ts). An
 * offline list plus a few rules, not an estimator from the registry: the rules catch what lists
 * miss (`aaaaaaaa`, `acegikmo`, eight spaces), and nothing large ships to the server or browser
 * (docs/decisions/038).
 */
export type WeakPasswordReason = "blank" | "repetitive" | "sequence" | "common" | "personal";

const STEMS = new Set(COMMON_PASSWORD_STEMS);
const WHOLE = new Set(COMMON_PASSWORDS);

/** Rows of the keyboards people type walks on, and the digit and letter orders. */
const RUNS = ["1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm", "qwertzuiop", "yxcvbnm", "azertyuiop", "qsdfghjklm", "wxcvbn", "!@#$%^&*()", "abcdefghijklmnopqrstuvwxyz"];

const LEET: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", $: "s", "!": "i", "|": "l", "+": "t" };

export function weakPasswordReason(password: string, who: { email?: string; name?: string } = {}): WeakPasswordReason | null {
  if (password.trim() === "") return "blank";
  const lower = password.toLowerCase();
  const compact = lower.replace(/\s+/g, "");
  if (new Set(compact).size < 4 || isRepeatedChunk(compact)) return "repetitive";
  if (isSteadyStep(compact) || RUNS.some((run) => run.includes(compact) || reverse(run).includes(compact))) return "sequence";
  const candidates = new Set([compact, stem(compact), unLeet(compact, "i"), unLeet(compact, "l"), stem(unLeet(compact, "i")), stem(unLeet(compact, "l"))]);
  for (const c of candidates) if (WHOLE.has(c) || STEMS.has(c) || isKeyboardStem(c)) return "common";
  const personal = [who.email?.split("@")[0], who.name?.replace(/\s+/g, "")].map((p) => p?.toLowerCase() ?? "").filter((p) => p.length >= 3);
  for (const c of candidates) if (personal.some((p) => c === p || c === reverse(p))) return "personal";
  return null;
}

/** The password without the digits and symbols people put around a word (`!password123`). */
function stem(s: string): string {
  return s.replace(/^[\d\W_]+/, "").replace(/[\d\W_]+$/, "");
}

function unLeet(s: string, one: "i" | "l"): string {
  return [...s].map((ch) => (ch === "1" ? one : (LEET[ch] ?? ch))).join("");
}

function reverse(s: string): string {
  return [...s].reverse().join("");
}

/** `abcabcabc`, `passpass`, `12121212`: one short piece typed again and again. */
function isRepeatedChunk(s: string): boolean {
  for (let n = 1; n <= s.length / 2; n++) {
    if (s.length % n === 0 && s.slice(0, n).repeat(s.length / n) === s) return true;
  }
  return false;
}

/** Every character the same distance from the last (`87654321`, `acegikmo`). */
function isSteadyStep(s: string): boolean {
  const step = s.charCodeAt(1) - s.charCodeAt(0);
  if (Math.abs(step) > 2) return false;
  for (let i = 2; i < s.length; i++) if (s.charCodeAt(i) - s.charCodeAt(i - 1) !== step) return false;
  return true;
}

/** A stem that is itself a walk along one keyboard row (`qwerty` in `qwerty2024!`). */
function isKeyboardStem(s: string): boolean {
  return s.length >= 4 && RUNS.some((run) => run.includes(s) || reverse(run).includes(s));
}
