import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { missingStartEnv, START_ENV } from "../scripts/start-env.mjs";
import { npmStartFlags } from "./start-flags.ts";

const root = path.resolve(import.meta.dirname, "..");

describe("the server's Node flags", () => {
  it("are the same in the container image as in npm start", () => {
    const dockerfile = readFileSync(path.join(root, "deploy/Dockerfile"), "utf8");
    const cmd = /^CMD\s+(\[.*\])\s*$/m.exec(dockerfile)?.[1];
    expect(cmd).toBeDefined();
    expect(JSON.parse(cmd!)).toEqual(["node", ...npmStartFlags(root), "scripts/start.mjs"]);
  });

  it("go to the same Node in the container image as npm install brings (docs/decisions/042)", () => {
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const dockerfile = readFileSync(path.join(root, "deploy/Dockerfile"), "utf8");
    expect(pkg.dependencies.node).toMatch(/^\d+\.\d+\.\d+$/);
    expect(/^FROM node:(\S+)-bookworm-slim$/m.exec(dockerfile)?.[1]).toBe(pkg.dependencies.node);
  });

  it("include the collector, the young generation's size and a fixed heap growth factor", () => {
    expect(npmStartFlags(root)).toEqual(expect.arrayContaining(["--expose-gc", "--max-semi-space-size=8", "--heap-growing-percent=100"]));
  });
});

describe("the server's environment (scripts/start-env.mjs)", () => {
  // what scripts/start.mjs does first, in a process of its own: prints its pid before and after
  const script = `import { ensureStartEnv } from ${JSON.stringify(path.join(root, "scripts/start-env.mjs"))};
    process.stdout.write(process.pid + " ");
    ensureStartEnv();
    process.stdout.write(process.pid + " " + process.env.MALLOC_ARENA_MAX);`;
  const run = (env: NodeJS.ProcessEnv) => {
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { env, encoding: "utf8" });
    expect(result.stderr).toBe("");
    return result.stdout.trim().split(/\s+/);
  };

  it("npm start sets MALLOC_ARENA_MAX=2 by replacing itself, same process, before anything else runs", () => {
    const env = { ...process.env };
    delete env.MALLOC_ARENA_MAX;
    const [firstPid, secondPid, afterExec, value] = run(env);
    if (typeof process.execve !== "function") return expect(firstPid).toBeTruthy();
    // the script ran twice in one process: once without the variable, once with it
    expect([firstPid, secondPid]).toEqual([secondPid, afterExec]);
    expect(value).toBe("2");
  });

  it("keeps a value the operator set", () => {
    expect(run({ ...process.env, MALLOC_ARENA_MAX: "4" })).toEqual([expect.any(String), expect.any(String), "4"]);
    expect(missingStartEnv({ MALLOC_ARENA_MAX: "8" })).toEqual({});
    expect(missingStartEnv({})).toEqual(START_ENV);
  });

  it("is the container image's and the systemd unit's too", () => {
    const dockerfile = readFileSync(path.join(root, "deploy/Dockerfile"), "utf8");
    const unit = readFileSync(path.join(root, "deploy/vidfetch.service"), "utf8");
    for (const [name, value] of Object.entries(START_ENV)) {
      expect(dockerfile).toMatch(new RegExp(`^ENV .*\\b${name}=${value}\\b`, "m"));
      expect(unit).toContain(`Environment=${name}=${value}`);
    }
  });
});

describe("what npm start rebuilds the host for (scripts/build-sources.mjs)", () => {
  it("watches every folder behind an import alias, the job handlers' included, and the mock platform", async () => {
    const { hostSources } = await import("../scripts/build-sources.mjs");
    const watched = hostSources(path.resolve(import.meta.dirname, ".."));
    for (const dir of ["server", "engine", "db", "common", "app", "jobs", "tests/mocks"]) expect(watched).toContain(dir);
    expect(watched).not.toContain("tests");
  });
});
