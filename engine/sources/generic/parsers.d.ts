// The manifest parsers ship without types; we describe only what the generic adapter calls and
// type their results at the call sites (hls.ts, dash.ts).
declare module "m3u8-parser" {
  export class Parser {
    manifest: unknown;
    push(chunk: string): void;
    end(): void;
  }
}
declare module "mpd-parser" {
  export function parse(manifest: string, options?: { manifestUri?: string }): unknown;
}
