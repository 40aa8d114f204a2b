import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { isAlive } from "#tests/support/processes.ts";

/**
 * `npm start` is npm → sh -c → node. A SIGTERM to npm ended npm and the shell, and the server
 * lived on, orphaned, holding its port. The server now notices that its parent is gone and stops
 * through its own SIGTERM handler (where the graceful shutdown lives).
 */
const MODULE = pathToFileURL(path.resolve(import.meta.dirname, "../../../scripts/stop-when-orphaned.mjs")).href;

describe("a server started through a shell", () => {
  it("stops through its SIGTERM handler when the shell that started it is killed", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "vidfetch-orphan-"));
    const pidFile = path.join(dir, "pid");
    const stoppedFile = path.join(dir, "stopped");
    // the shape of the server: a SIGTERM handler that shuts down, and work that keeps it alive
    const server = [
      `const { writeFileSync } = await import("node:fs");`,
      `(await import(${JSON.stringify(MODULE)})).stopWhenOrphaned(100);`,
      `process.on("SIGTERM", () => { writeFileSync(${JSON.stringify(stoppedFile)}, "SIGTERM"); process.exit(0); });`,
      `writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));`,
      `setInterval(() => {}, 1000);`,
    ].join(" ");
    // two commands, so the shell stays in between as it does under npm (a lone command may be exec'd)
    const shell = spawn("sh", ["-c", `node --input-type=module -e '${server}'; true`], { stdio: "ignore" });
    for (let i = 0; i < 100 && !existsSync(pidFile); i++) await sleep(50);
    const serverPid = Number(readFileSync(pidFile, "utf8"));
    expect(serverPid).not.toBe(shell.pid);

    shell.kill("SIGKILL");
    for (let i = 0; i < 60 && isAlive(serverPid); i++) await sleep(50);
    const stillRunning = isAlive(serverPid);
    if (stillRunning) process.kill(serverPid, "SIGKILL");
    expect(stillRunning).toBe(false);
    expect(readFileSync(stoppedFile, "utf8")).toBe("SIGTERM");
  });
});
