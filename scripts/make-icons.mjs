#!/usr/bin/env node
// Renders the web app icons (public/icons/) from public/logo.svg in the system Chromium:
// 192 and 512 px "any" icons, and a 512 px maskable one whose artwork sits inside the 80 %
// safe zone on a full-bleed brand background. Run again after changing the logo:
//   node scripts/make-icons.mjs
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const svg = readFileSync(path.join(root, "public/logo.svg"), "utf8");
const BRAND = "#1f57d6";

const icons = [
  { file: "icon-192.png", size: 192, maskable: false },
  { file: "icon-512.png", size: 512, maskable: false },
  { file: "icon-maskable-512.png", size: 512, maskable: true },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
try {
  for (const icon of icons) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    // the maskable icon: brand colour to the edges, the logo at 70 % so no mask crops it
    const inner = icon.maskable ? Math.round(icon.size * 0.7) : icon.size;
    const html = `<html><body style="margin:0;width:${icon.size}px;height:${icon.size}px;display:grid;place-items:center;background:${icon.maskable ? BRAND : "transparent"}">
      <div style="width:${inner}px;height:${inner}px">${svg.replace("<svg ", `<svg width="${inner}" height="${inner}" `)}</div></body></html>`;
    await page.setContent(html);
    await page.screenshot({ path: path.join(root, "public/icons", icon.file), omitBackground: !icon.maskable });
    await page.close();
  }
} finally {
  await browser.close();
}
console.log("icons written to public/icons/");
