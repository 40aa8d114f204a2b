import { describe, expect, it } from "vitest";
import { KeyError } from "#app/modules/api-keys/api-key-messages.ts";
import { JobError } from "#app/modules/jobs/job-messages.ts";
import { ProfileError } from "#app/modules/profiles/profile-messages.ts";
import { EngineError, isEngineError } from "#engine/errors.ts";
import { CatalogueError } from "#common/error-catalogue.ts";

/**
 * What the other build's copy of a class throws: the same kind mark under the process-wide
 * symbol, made by a class object this module has never seen (the app's server build and the
 * host's build each bundle their own copy of every catalogue class).
 */
function thrownByTheOtherBuild(kind: string, code: string, status: number): Error {
  const err = new Error("from the other copy") as Error & { code: string; status: number };
  Object.defineProperty(err, Symbol.for("vidfetch.error-kind"), { value: kind });
  err.code = code;
  err.status = status;
  return err;
}

describe("catalogue errors", () => {
  it("carry their code, status and message", () => {
    const job = new JobError("job.not_changeable");
    expect(job).toMatchObject({ code: "job.not_changeable", status: 409, message: expect.stringContaining("can no longer be changed") });
    expect(new JobError("job.invalid_link", "Link 2: nope").message).toBe("Link 2: nope");
    expect(new EngineError("plan.required", { message: "Ultimate only." })).toMatchObject({ code: "plan.required", status: 403, name: "EngineError" });
    expect(new KeyError("key.invalid").status).toBe(401);
  });

  it("are known by their kind, so instanceof holds for the other build's copy and not across kinds", () => {
    const otherJob = thrownByTheOtherBuild("job", "job.not_changeable", 409);
    expect(otherJob instanceof JobError).toBe(true);
    expect(otherJob instanceof ProfileError).toBe(false);
    expect(otherJob instanceof CatalogueError).toBe(true);
    const otherEngine = thrownByTheOtherBuild("engine", "plan.required", 403);
    expect(isEngineError(otherEngine)).toBe(true);
    expect(otherEngine instanceof JobError).toBe(false);
    // a plain error, or one that only looks alike, is none of them
    expect(new Error("x") instanceof CatalogueError).toBe(false);
    expect(Object.assign(new Error("x"), { code: "job.not_found", status: 404 }) instanceof JobError).toBe(false);
    expect(isEngineError("engine")).toBe(false);
    expect(isEngineError(null)).toBe(false);
  });
});
