/**
 * The browser's memory while the converter turns a long audio file into WAV: the summed RSS of
 * the Chromium renderer processes (page and media worker), sampled every 250 ms, in memory
 * ("Convert") or streamed into a file ("Convert and save to a file…", the save dialog replaced
 * by a file in the origin-private file system, as in tests/e2e/tools.spec.ts). Decision 015.
 *
 *   npx tsx bench/converter-memory.ts <site URL> <audio file> <memory|disk>
 *
 * The site must be running (e.g. node scripts/e2e-server.mjs with PORT and BUILD_DIR). The file
 * is any audio Chromium decodes, e.g. 1 h of Opus:
 *   ffmpeg -f lavfi -i sine=frequency=500:sample_rate=48000:duration=3600 -ac 2 -c:a libopus -b:a 24k hour.webm
 */
import { readFileSync, readdirSync } from "node:fs";
import { chromium } from "@playwright/test";

const [base, source, mode] = process.argv.slice(2);
if (!base || !source || (mode !== "memory" && mode !== "disk")) {
  console.error("usage: npx tsx bench/converter-memory.ts <site URL> <audio file> <memory|disk>");
  process.exit(2);
}

const server = await chromium.launchServer({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const root = server.process().pid!;

function children(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) out.push(Number(d), ...children(Number(d)));
    } catch {
      // the process ended while being read
    }
  }
  return out;
}

function rendererRss(): number {
  let sum = 0;
  for (const pid of children(root)) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--type=renderer")) continue;
      sum += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
    } catch {
      // the process ended while being read
    }
  }
  return sum;
}

const browser = await chromium.connect(server.wsEndpoint());
const page = await browser.newPage();
await page.addInitScript(() => {
  (window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = async (o: { suggestedName: string }) =>
    (await navigator.storage.getDirectory()).getFileHandle(o.suggestedName, { create: true });
});
await page.goto(`${base}/tools/converters`);
await page.getByLabel("Video or audio file").setInputFiles(source);
await page.getByText(/^Duration: /).waitFor({ timeout: 300_000 });
await page.getByLabel("Convert to").selectOption("wav");
await page.waitForTimeout(2000);
const before = rendererRss();
let peak = before;
const timer = setInterval(() => (peak = Math.max(peak, rendererRss())), 250);
const started = Date.now();
const done = mode === "disk" ? page.getByTestId("tool-saved") : page.getByRole("link", { name: /^Save / });
if (mode === "disk") await page.getByRole("button", { name: "Convert and save to a file…" }).click();
else await page.getByRole("button", { name: "Convert", exact: true }).click();
await done.waitFor({ timeout: 1_800_000 });
clearInterval(timer);
const mb = (n: number) => `${Math.round(n / 1024 ** 2)} MB`;
console.log(`${await done.textContent()}`);
console.log(`${mode}: renderer RSS ${mb(before)} before, peak ${mb(peak)} (+${mb(peak - before)}), ${Math.round((Date.now() - started) / 1000)} s`);
await browser.close();
await server.close();
