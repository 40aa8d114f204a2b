/**
 * Proof-of-origin tokens from a bgutil-protocol provider (issue 32 §2, §7) on the mock platform:
 * a token-gated web client gets a token bound to the video on its player request and as `pot=`
 * on its media URLs, so its answer ends the ladder; the token is asked once per video and reused
 * until it expires; a provider that is down or hangs leaves the ladder as it is without one; and
 * yt-dlp runs name the provider to bgutil's plugin.
 */
import { stat } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "#engine/index.ts";
import { TOKEN_FREE_REQUEST_BYTES } from "#engine/stream/refusal-ladder.ts";
import { startFakePotProvider, type FakePotProvider } from "#tests/mocks/pot-provider.ts";
import { writeFakeYtdlp } from "#tests/mocks/ytdlp.ts";
import { downloadRequestBudget, mockPlatformSuite, sourceContext } from "./helpers.ts";
import { youtubeDocument } from "./ytdlp-documents.ts";

const VIDEO = "vidfetch720";
const URL_OF = (id: string) => `https://www.youtube.com/watch?v=${id}`;

describe("proof-of-origin tokens from a provider, on the mock platform", () => {
  let provider: FakePotProvider;
  const suite = mockPlatformSuite();

  afterEach(async () => {
    await provider?.close();
  });

  /**
   * A fresh engine (its own resolve cache and token cache) with this provider (or none);
   * `resolveCacheSeconds: 0`: every resolve asks the platform (a download resolves twice then).
   */
  async function engineWith(clients: string[], potProviderUrl: string | undefined, opts: { ytdlpPath?: string; resolveCacheSeconds?: number } = {}): Promise<Engine> {
    const { config } = sourceContext({ hostMap: suite.platform.hostMap, clients });
    const engine = await createEngine({
      ...config,
      youtube: { ...config.youtube, potProviderUrl },
      ytdlpPath: opts.ytdlpPath ?? "off",
      publicUrl: suite.origin,
      limits: { ...config.limits, resolveCacheSeconds: opts.resolveCacheSeconds ?? 60 },
    });
    return suite.use(engine);
  }

  /**
   * Downloads mp4-720 whole; what the platform saw for the video meanwhile, checked against the
   * budget of a two-client ladder (`linkResolves`: 2 without a resolve cache).
   */
  async function download(engine: Engine, linkResolves = 1) {
    const from = suite.platform.youtubeRequests().length;
    const created = await engine.createDownload({ url: URL_OF(VIDEO), format: "mp4-720", caller: { kind: "anonymous" }, ip: "127.0.0.1" });
    const res = await fetch(created.downloadUrl);
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    const seen = suite.platform.youtubeRequests().slice(from).filter((r) => r.videoId === VIDEO);
    const media = seen.filter((r) => r.kind === "media");
    const budget = downloadRequestBudget({
      ladder: 2,
      linkResolves,
      inputBytes: [(await stat(suite.platform.media.video[720])).size, (await stat(suite.platform.media.audioM4a)).size],
      smallestRequestBytes: Math.min(sourceContext({ hostMap: suite.platform.hostMap }).config.limits.chunkBytes, TOKEN_FREE_REQUEST_BYTES),
    });
    expect(seen.filter((r) => r.kind === "player").length).toBeLessThanOrEqual(budget.players);
    expect(media.length).toBeGreaterThan(0);
    expect(media.length).toBeLessThanOrEqual(budget.media);
    return {
      players: seen.filter((r) => r.kind === "player").map((r) => ({ client: r.client, poToken: r.poToken })),
      mediaFrom: [...new Set(media.map((r) => r.client))],
      mediaTokens: [...new Set(media.map((r) => r.poToken))],
    };
  }

  it("a token-gated web client gets the token on its player request and pot= on every media URL, and ends the ladder", async () => {
    provider = await startFakePotProvider();
    const seen = await download(await engineWith(["MWEB", "VISIONOS"], provider.url));
    expect(seen.players).toEqual([{ client: "MWEB", poToken: `mock-pot-${VIDEO}-1` }]);
    expect(seen.mediaFrom).toEqual(["MWEB"]);
    expect(seen.mediaTokens).toEqual([`mock-pot-${VIDEO}-1`]);
    expect(provider.calls()).toEqual([VIDEO]);
  });

  it("without a provider the same ladder is as before: MWEB's formats are a last resort, VISIONOS's are used", async () => {
    const seen = await download(await engineWith(["MWEB", "VISIONOS"], undefined));
    expect(seen.players).toEqual([
      { client: "MWEB", poToken: undefined },
      { client: "VISIONOS", poToken: undefined },
    ]);
    expect(seen.mediaFrom).toEqual(["VISIONOS"]);
    expect(seen.mediaTokens).toEqual([undefined]);
  });

  it("the token is asked once per video and reused on later resolves until it expires, then asked again", async () => {
    // the provider's tokens live 62 s; one within a minute of its expiry is asked for again
    provider = await startFakePotProvider({ ttlMs: 62_000 });
    const engine = await engineWith(["MWEB", "VISIONOS"], provider.url, { resolveCacheSeconds: 0 });
    const first = await download(engine, 2);
    const second = await download(engine, 2);
    const players = [...first.players, ...second.players];
    expect(players.length).toBeGreaterThanOrEqual(2);
    expect(players).toEqual(players.map(() => ({ client: "MWEB", poToken: `mock-pot-${VIDEO}-1` })));
    expect(provider.calls()).toEqual([VIDEO]);
    await new Promise((r) => setTimeout(r, 2100));
    const third = await download(engine, 2);
    expect(new Set(third.players.map((p) => p.poToken))).toEqual(new Set([`mock-pot-${VIDEO}-2`]));
    expect(third.mediaTokens).toEqual([`mock-pot-${VIDEO}-2`]);
    expect(provider.calls()).toEqual([VIDEO, VIDEO]);
  });

  it("clients a web token does not serve (ANDROID: DroidGuard) get none, and the provider is not asked", async () => {
    provider = await startFakePotProvider();
    const seen = await download(await engineWith(["ANDROID", "VISIONOS"], provider.url));
    expect(seen.players.map((p) => p.client)).toEqual(["ANDROID", "VISIONOS"]);
    expect(seen.mediaFrom).toEqual(["VISIONOS"]);
    expect(provider.calls()).toEqual([]);
  });

  it("a playing VISIONOS first: the provider is never asked", async () => {
    provider = await startFakePotProvider();
    const seen = await download(await engineWith(["VISIONOS", "MWEB"], provider.url));
    expect(seen.players).toEqual([{ client: "VISIONOS", poToken: undefined }]);
    expect(provider.calls()).toEqual([]);
  });

  it.each([
    ["hangs", "hang" as const],
    ["fails", "error" as const],
    ["is not listening", "down" as const],
  ])("a provider that %s: the download still completes through the ladder, within a short wait", async (_name, how) => {
    provider = await startFakePotProvider();
    const url = provider.url;
    if (how === "down") await provider.close();
    else provider.setBehaviour(how);
    const engine = await engineWith(["MWEB", "VISIONOS"], url);
    const started = performance.now();
    const seen = await download(engine);
    expect(performance.now() - started).toBeLessThan(9000);
    expect(seen.players).toEqual([
      { client: "MWEB", poToken: undefined },
      { client: "VISIONOS", poToken: undefined },
    ]);
    expect(seen.mediaFrom).toEqual(["VISIONOS"]);
    // rested after the failure: another video's resolve does not wait for it again
    const again = performance.now();
    await engine.resolve(URL_OF("vidfetchAll"), { kind: "anonymous" });
    expect(performance.now() - again).toBeLessThan(3000);
    expect(provider.calls()).toEqual(how === "down" ? [] : [VIDEO]);
  });

  it("yt-dlp runs name the provider to bgutil's plugin (youtubepot-bgutilhttp:base_url)", async () => {
    provider = await startFakePotProvider();
    suite.platform.setYouTubeModes({ botWall: ["VISIONOS"] });
    const fake = await writeFakeYtdlp({ type: "json", document: youtubeDocument(suite.platform.media, VIDEO) });
    const engine = await engineWith(["VISIONOS", "ytdlp"], `${provider.url}/`, { ytdlpPath: fake.path });
    await engine.resolve(URL_OF(VIDEO), { kind: "anonymous" });
    const runs = await fake.runs();
    expect(runs).toHaveLength(1);
    const args = runs[0]!.args;
    expect(args[args.indexOf("--extractor-args") + 1]).toBe(`youtubepot-bgutilhttp:base_url=${provider.url}`);
    expect(args.indexOf("--extractor-args")).toBeLessThan(args.indexOf("--"));
  });

  it("yt-dlp runs without a provider carry no such argument", async () => {
    suite.platform.setYouTubeModes({ botWall: ["VISIONOS"] });
    const fake = await writeFakeYtdlp({ type: "json", document: youtubeDocument(suite.platform.media, VIDEO) });
    const engine = await engineWith(["VISIONOS", "ytdlp"], undefined, { ytdlpPath: fake.path });
    await engine.resolve(URL_OF(VIDEO), { kind: "anonymous" });
    const runs = await fake.runs();
    expect(runs).toHaveLength(1);
    expect(runs[0]!.args).not.toContain("--extractor-args");
  });
});
