#!/usr/bin/env node
// `npm test`: every test, offline. The Vitest tiers (unit and integration in one run, then the
// attack and scale suites alone), then the browser journeys (Playwright in the system Chromium). Ends with one line "N passed, N failed, N skipped"
// computed from both runners' JSON reports, and exits non-zero when anything failed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const out = path.join(root, "test-results");
mkdirSync(out, { recursive: true });
const vitestJson = path.join(out, "vitest.json");
const playwrightJson = path.join(out, "playwright.json");
rmSync(vitestJson, { force: true });
rmSync(playwrightJson, { force: true });

const args = process.argv.slice(2);
// --vitest: every Vitest tier, no browser; --e2e: the browser journeys only
const only = args.includes("--vitest") ? "vitest" : args.includes("--e2e") ? "e2e" : "all";
const bin = (name) => path.join(root, "node_modules", ".bin", name);
// The runners' launchers start `node` from the PATH: node_modules/.bin first, as npm scripts
// have it, so they run on the Node that npm install brought (docs/decisions/042) even when this
// script was started by another one.
const env = { ...process.env, PATH: [path.join(root, "node_modules", ".bin"), process.env.PATH].filter(Boolean).join(path.delimiter) };
const testNode = spawnSync("node", ["-p", "`${process.version} (${process.execPath})`"], { env, encoding: "utf8" }).stdout?.trim();
console.log(`Testing with Node ${testNode || "(not found)"}`);

if (!process.env.TEST_DATABASE_URL) {
  console.log("[notice] TEST_DATABASE_URL is not set: the PostgreSQL variants of the data tests are skipped (PGlite runs).");
}

const totals = { passed: 0, failed: 0, skipped: 0 };
let crashed = false;
/** Names of the failed tests, repeated just above the closing line so the end of a log says which */
const failures = [];

/** One Vitest run; its JSON report's counts are added to the totals. */
function runVitest(extraArgs, reportFile) {
  rmSync(reportFile, { force: true });
  const r = spawnSync(bin("vitest"), ["run", ...extraArgs, "--reporter=default", "--reporter=json", `--outputFile.json=${reportFile}`], { stdio: "inherit", env });
  if (existsSync(reportFile)) {
    const report = JSON.parse(readFileSync(reportFile, "utf8"));
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + report.numTodoTests;
    // a file that failed to load has no tests but is a failure
    const brokenFiles = (report.testResults ?? []).filter((f) => f.status === "failed" && (f.assertionResults ?? []).length === 0);
    totals.failed += brokenFiles.length;
    for (const file of report.testResults ?? []) {
      const where = path.relative(root, file.name ?? "");
      if (brokenFiles.includes(file)) failures.push(`${where}: the file failed to load`);
      for (const t of file.assertionResults ?? []) if (t.status === "failed") failures.push(`${where} › ${t.fullName}`);
    }
  } else {
    crashed = true;
    console.error(`Vitest exited with ${r.status} and wrote no report.`);
  }
}

if (only !== "e2e") {
  // The attack suites (tests/attack) start production servers and measure memory and /healthz
  // under floods: they run after the other tests, alone, so neither disturbs the other.
  // The first run is `npm run test:unit` and `npm run test:integration` together.
  runVitest(["--exclude", "tests/attack/**", "--exclude", "tests/scale/**"], vitestJson);
  runVitest(["tests/attack"], path.join(out, "vitest-attack.json"));
  // Two instances behind nginx on PostgreSQL and Redis (skipped with a notice when one is
  // missing): it starts three servers of its own, so it runs alone, after the attack suites.
  runVitest(["tests/scale"], path.join(out, "vitest-scale.json"));
}

if (only !== "vitest") {
  const r = spawnSync(bin("playwright"), ["test", "--reporter=list,json"], {
    stdio: "inherit",
    env: { ...env, PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightJson },
  });
  if (existsSync(playwrightJson)) {
    const report = JSON.parse(readFileSync(playwrightJson, "utf8"));
    const { stats, errors = [] } = report;
    totals.passed += stats.expected + stats.flaky;
    totals.failed += stats.unexpected + errors.length;
    totals.skipped += stats.skipped;
    const walk = (suite, titles) => {
      // a file's own suite is titled with its path; describe blocks add their titles
      const here = suite.title && suite.title !== suite.file ? [...titles, suite.title] : titles;
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) if (t.status === "unexpected") failures.push(`${path.relative(root, path.join(report.config?.rootDir ?? root, spec.file))} › ${[...here, spec.title].join(" › ")} [${t.projectName}]`);
      }
      for (const child of suite.suites ?? []) walk(child, here);
    };
    for (const suite of report.suites ?? []) walk(suite, []);
    for (const e of errors) failures.push(`Playwright: ${String(e.message ?? e).split("\n")[0]}`);
  } else {
    crashed = true;
    console.error(`Playwright exited with ${r.status} and wrote no report.`);
  }
}

if (crashed) totals.failed += 1;
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
const line = `${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`;
writeFileSync(path.join(out, "summary.txt"), line + "\n");
console.log(`\n${line}`);
process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);
