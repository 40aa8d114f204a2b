/**
 * The JavaScript a visitor downloads on the first load of a page, gzipped: the entry, the root
 * route and the page's route module with every static import, plus the route manifest: with lazy
 * route discovery (the default) the manifest of the page's own routes, inlined in the HTML; with
 * "initial" discovery the full `manifest-*.js` file. Read from the production build's route
 * manifest (`build/client/assets/manifest-*.js`), the same list the server renders as
 * `<link rel="modulepreload">` and `<script type="module">`.
 *
 *   npx tsx bench/first-load-js.ts [buildDir]   (BUILD_DIR is honoured too)
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/** Issue "home" §6: the home page ships at most 150 KB of gzipped JavaScript on first load. */
export const FIRST_LOAD_BUDGET_BYTES = 150_000;

interface ManifestEntry {
  module: string;
  imports?: string[];
}
interface RouteManifest {
  url?: string;
  entry: ManifestEntry;
  routes: Record<string, ManifestEntry & { parentId?: string; index?: boolean; path?: string }>;
}

export interface FirstLoadFile {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface FirstLoadReport {
  page: string;
  routeIds: string[];
  files: FirstLoadFile[];
  totalBytes: number;
  totalGzipBytes: number;
  budgetBytes: number;
  withinBudget: boolean;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function readManifest(clientDir: string): { manifest: RouteManifest; file: string } {
  const assets = path.join(clientDir, "assets");
  const name = readdirSync(assets).find((f) => /^manifest-[\w-]+\.js$/.test(f));
  if (!name) throw new Error(`No route manifest in ${assets}: run \`npm run build\` first.`);
  const text = readFileSync(path.join(assets, name), "utf8");
  // The file is `window.__reactRouterManifest={…};`: JSON between the first "=" and the last "}".
  const json = text.slice(text.indexOf("=") + 1, text.lastIndexOf("}") + 1);
  return { manifest: JSON.parse(json) as RouteManifest, file: `/assets/${name}` };
}

/** The route ids matched by a URL path: the root plus, for "/", the index route. */
function routeIdsFor(manifest: RouteManifest, page: string): string[] {
  const ids = ["root"];
  if (page === "/") {
    const index = Object.entries(manifest.routes).find(([, r]) => r.index && (r.parentId === "root" || !r.parentId));
    if (!index) throw new Error("The build has no index route for /.");
    ids.push(index[0]);
    return ids;
  }
  const trimmed = page.replace(/^\/+|\/+$/g, "");
  const match = Object.entries(manifest.routes).find(([, r]) => r.path === trimmed);
  if (!match) throw new Error(`The build has no route for ${page}.`);
  ids.push(match[0]);
  return ids;
}

/** The build's route discovery mode, read from its server build ("lazy" unless configured). */
function routeDiscoveryOf(buildDir: string): "lazy" | "initial" {
  const serverDir = path.join(buildDir, "server");
  const texts = [path.join(serverDir, "index.js"), ...readdirSync(path.join(serverDir, "assets"), { withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith(".js")).map((e) => path.join(serverDir, "assets", e.name))];
  for (const file of texts) {
    const m = /routeDiscovery\s*=\s*\{\s*"mode":\s*"(lazy|initial)"/.exec(readFileSync(file, "utf8"));
    if (m) return m[1] as "lazy" | "initial";
  }
  return "lazy";
}

export function measureFirstLoadJs(opts: { buildDir?: string; page?: string } = {}): FirstLoadReport {
  const buildDir = path.resolve(repoRoot, opts.buildDir ?? process.env.BUILD_DIR ?? "build");
  const clientDir = path.join(buildDir, "client");
  const page = opts.page ?? "/";
  const { manifest, file: manifestFile } = readManifest(clientDir);
  const routeIds = routeIdsFor(manifest, page);

  // With lazy route discovery (React Router's default for SSR) the page inlines a manifest of
  // just its own routes and never loads the full manifest file; with "initial" it loads the file.
  const lazy = routeDiscoveryOf(buildDir) === "lazy";
  const urls = new Set<string>([...(lazy ? [] : [manifestFile]), manifest.entry.module, ...(manifest.entry.imports ?? [])]);
  for (const id of routeIds) {
    const route = manifest.routes[id]!;
    urls.add(route.module);
    for (const imp of route.imports ?? []) urls.add(imp);
  }

  // Level 6 is what the server's compression middleware uses by default.
  const measure = (file: string, body: Buffer): FirstLoadFile => ({ file, bytes: body.length, gzipBytes: gzipSync(body, { level: 6 }).length });
  const files: FirstLoadFile[] = [...urls].map((url) => measure(url, readFileSync(path.join(clientDir, url.replace(/^\//, "")))));
  if (lazy) {
    const routes = Object.fromEntries(routeIds.map((id) => [id, manifest.routes[id]]));
    const inline = `window.__reactRouterManifest = ${JSON.stringify({ ...manifest, routes }, null, 2)};`;
    files.push(measure("(inline route manifest in the HTML)", Buffer.from(inline)));
  }
  files.sort((a, b) => b.gzipBytes - a.gzipBytes);
  const totalBytes = files.reduce((n, f) => n + f.bytes, 0);
  const totalGzipBytes = files.reduce((n, f) => n + f.gzipBytes, 0);
  return { page, routeIds, files, totalBytes, totalGzipBytes, budgetBytes: FIRST_LOAD_BUDGET_BYTES, withinBudget: totalGzipBytes <= FIRST_LOAD_BUDGET_BYTES };
}

export function formatFirstLoadReport(r: FirstLoadReport): string {
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  const lines = [
    `First-load JS of ${r.page}: ${kb(r.totalGzipBytes)} gzipped (${kb(r.totalBytes)} raw), budget ${kb(r.budgetBytes)}: ${r.withinBudget ? "OK" : "OVER BUDGET"}`,
    ...r.files.map((f) => `  ${kb(f.gzipBytes).padStart(9)}  ${f.file}`),
  ];
  return lines.join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = measureFirstLoadJs({ buildDir: process.argv[2] });
  console.log(formatFirstLoadReport(report));
  process.exitCode = report.withinBudget ? 0 : 1;
}
