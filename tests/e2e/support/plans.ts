import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { submitSignupAndConfirm } from "./accounts.ts";

/** Accounts on a plan in the browser (MOCKS=true, the fake Stripe), and reading a ZIP's manifest. */

export const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** A new, confirmed account, signed in and on its dashboard. */
export async function signUp(page: Page, name: string, tag = "jobs") {
  await page.goto("/signup");
  await expect(page.locator("main form")).toHaveAttribute("novalidate", "");
  await submitSignupAndConfirm(page, { name, email: uniqueEmail(tag), password: "correct horse battery" });
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Pay for a plan on the fake Stripe checkout and come back to the dashboard holding it. */
export async function subscribe(page: Page, plan: "Pro" | "Ultimate") {
  await page.goto("/premium");
  await page.waitForFunction(() => "__reactRouterContext" in window);
  await page.getByRole("button", { name: `Subscribe to ${plan}` }).click();
  await expect(page.getByRole("heading", { name: `Subscribe to ${plan}` })).toBeVisible();
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  await page.getByRole("link", { name: "Go to Dashboard" }).click();
  await expect(page.getByTestId("plan-name")).toHaveText(plan);
}

/** RFC 4180 rows of a CSV text (quoted fields with doubled quotes, CRLF line ends). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted || (c !== "," && c !== "\n" && c !== "\r")) {
      field += c;
    } else if (c === ",") {
      endField();
    } else if (c === "\n") {
      endField();
      rows.push(row);
      row = [];
    }
  }
  if (field !== "" || row.length > 0) {
    endField();
    rows.push(row);
  }
  return rows;
}

/** Unzip a saved ZIP into `dir` and read its manifest.csv (the byte-order mark left out): the header, then one row a link. */
export function unzipManifest(zipFile: string, dir: string): string[][] {
  mkdirSync(dir, { recursive: true });
  execFileSync("unzip", ["-q", "-o", zipFile, "-d", dir]);
  return parseCsv(readFileSync(path.join(dir, "manifest.csv"), "utf8").slice(1));
}
