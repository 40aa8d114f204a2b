import { describe as describeExchange, type RawResult } from "./raw-http.ts";

/**
 * Collects what an attack found (a 5xx, no answer, a hang) and prints it so the failing request
 * can be replayed by hand: grouped by kind, a few examples each.
 */
export interface Exchange {
  id: string;
  family: string;
  method: string;
  target: string;
  headers?: Array<[string, string]>;
  noHost?: boolean;
  body?: Buffer;
}

export class Findings {
  private readonly groups = new Map<string, { count: number; examples: string[] }>();
  total = 0;

  /** Record the exchange when it is a finding; returns whether it was one. */
  check(req: Exchange, res: RawResult): boolean {
    let kind: string | null = null;
    if (res.kind !== "response") kind = res.kind === "timeout" ? "hang (no answer in time)" : "connection closed without an answer";
    else if (res.status >= 500) kind = `${res.status}`;
    if (!kind) return false;
    this.total++;
    const key = `${kind} · ${req.family}`;
    const g = this.groups.get(key) ?? { count: 0, examples: [] };
    g.count++;
    if (g.examples.length < 3) {
      const bodyPreview = req.body ? req.body.toString("latin1").slice(0, 200) : undefined;
      g.examples.push(`#${req.id} ${describeExchange({ method: req.method, target: req.target, headers: req.headers, noHost: req.noHost, bodyPreview }, res)}`);
    }
    this.groups.set(key, g);
    return true;
  }

  report(title: string): string {
    if (!this.total) return `${title}: no findings`;
    const lines = [`${title}: ${this.total} finding(s)`];
    const sorted = [...this.groups.entries()].sort((a, b) => b[1].count - a[1].count);
    for (const [key, g] of sorted) {
      lines.push(`  ${g.count} × ${key}`);
      for (const e of g.examples) lines.push(`    ${e}`);
    }
    return lines.join("\n");
  }
}
