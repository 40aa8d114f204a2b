/**
 * The client ladder: asks the configured InnerTube clients in order and moves on by failure type
 * (issue 32 §1), stopping at the first complete answer so a healthy video costs one request.
 *
 * - SABR-only answer (adaptive formats without a URL): next client; its direct streams (itag 18)
 *   are kept as fill.
 * - Cipher-only answer (WEB family): deciphered with the player script in a sandbox (decipher.ts);
 *   if that fails, next client.
 * - Token-gated client (client-policy.ts): its formats need a PO token. With a token provider
 *   (`YOUTUBE_POT_PROVIDER_URL`, po-token.ts) a client a web token serves gets one bound to the
 *   video on its player request and as `pot=` on its media URLs, and its answer counts like an
 *   open client's. Without a token its answer is never complete; next client, its streams kept as
 *   a last resort.
 * - Bot wall, age gate, login wall, and "not found" (VISIONOS says ERROR for made-for-kids videos):
 *   next client. An age gate adds the embedded client when the video may be embedded.
 * - A refusal about the video itself (private, removed, region, members, live…): ends the ladder at
 *   once with its message.
 * - Caption tracks whose URLs need a PO token (`exp=xpe`): next client, for its tracks; the
 *   streams stay the first answer's.
 *
 * Streams of every answer are merged, best URL per itag: clients without a token gate first, in
 * the configured order. When no client plays the video, the error is the first refusal that is not
 * "not found"; "not found" only when every client said so. An answer without open video and audio
 * is not `complete`: the caller may still ask yt-dlp (ytdlp-rung.ts) before settling for it.
 */
import type { Innertube, YT } from "youtubei.js";
import type { Logger } from "pino";
import { EngineError, isEngineError } from "../../errors.ts";
import type { OutboundFetch } from "../../outbound/outbound-fetch.ts";
import type { UpstreamStream } from "../../types.ts";
import type { ClientAttempt } from "../types.ts";
import { captionUrlNeedsToken, EMBEDDED_CLIENT, isTokenGated, takesWebToken } from "./client-policy.ts";
import { decipherFormats, getPlayer, needsDecipher } from "./decipher.ts";
import { fetchPlayer, parseVideoInfo } from "./innertube.ts";
import { classifyPlayability, type PlayabilityVerdict } from "./playability.ts";
import type { PoTokenSource } from "./po-token.ts";
import { hasDirectUrl, toUpstreamStream, type InnertubeFormat } from "./streams.ts";

export interface PlayerCandidate {
  client: string;
  player: unknown;
  info: YT.VideoInfo;
  streams: UpstreamStream[];
  /** true when the URLs came out of the sandboxed player script */
  deciphered?: boolean;
  /** where the caption tracks come from, when not `info` (its track URLs need a PO token) */
  captionsInfo?: YT.VideoInfo;
  /** true when its player request and media URLs carry a proof-of-origin token */
  poToken?: boolean;
  /** true when its adaptive formats came without URLs (SABR-only) and nothing deciphered them */
  sabrOnly?: boolean;
}

/** The verdict of an answer (not a refusal) on its client. */
function attemptOf(answer: PlayerCandidate): ClientAttempt {
  const { client } = answer;
  if (lacksToken(answer)) return { client, ok: false, code: "client.needs_token" };
  if (hasAdaptivePair(answer.streams)) return { client, ok: true, code: null };
  return { client, ok: false, code: answer.sabrOnly ? "client.sabr_only" : "video.no_formats" };
}

/** An answer whose formats need a PO token it was not given: a last resort. */
function lacksToken(answer: PlayerCandidate): boolean {
  return isTokenGated(answer.client) && !answer.poToken;
}

/** The answer with `pot=<token>` on every media URL (googlevideo's GVS token). */
function withToken(answer: PlayerCandidate, token: string): PlayerCandidate {
  const streams = answer.streams.map((s) => {
    if (!URL.canParse(s.url)) return s; // nothing to append to; fetching it will say what it is
    const url = new URL(s.url);
    url.searchParams.set("pot", token);
    return { ...s, url: url.href };
  });
  return { ...answer, streams, poToken: true };
}

/** A client's refusal: final ones end the ladder; the others let the next client try. */
class Refusal {
  constructor(
    readonly error: EngineError,
    readonly verdict?: PlayabilityVerdict,
  ) {}
  get final(): boolean {
    return this.verdict !== undefined && !this.verdict.retryable;
  }
}

function formatsOf(info: YT.VideoInfo) {
  const muxed = (info.streaming_data?.formats ?? []) as unknown as InnertubeFormat[];
  const adaptive = (info.streaming_data?.adaptive_formats ?? []) as unknown as InnertubeFormat[];
  return { muxed, adaptive, all: [...muxed, ...adaptive] };
}

function streamsOf(formats: InnertubeFormat[]): UpstreamStream[] {
  return formats.map(toUpstreamStream).filter((s): s is UpstreamStream => s !== null);
}

/** Both halves of a download at any height: separate video and audio with URLs. */
function hasAdaptivePair(streams: UpstreamStream[]): boolean {
  return streams.some((s) => s.kind === "video") && streams.some((s) => s.kind === "audio");
}

/** Caption tracks YouTube serves only with a PO token: their URLs say `exp=xpe` (review Y6). */
export function captionsNeedToken(info: YT.VideoInfo): boolean {
  // a URL we cannot read says nothing about tokens; fetching it will tell
  return (info.captions?.caption_tracks ?? []).some((t) => captionUrlNeedsToken(t.base_url));
}

/** An answer that makes asking further clients pointless. */
function isComplete(candidate: PlayerCandidate): boolean {
  return !lacksToken(candidate) && hasAdaptivePair(candidate.streams) && !captionsNeedToken(candidate.info);
}

function refusalOf(body: unknown, client: string, what = client): Refusal | undefined {
  const verdict = classifyPlayability(body);
  if (!verdict) return undefined;
  return new Refusal(new EngineError(verdict.code, { detail: `${what}: ${verdict.reason}` }), verdict);
}

/** Player script → request again with its signature timestamp → decipher every URL. */
async function decipherCandidate(opts: { yt: Innertube; fetch: OutboundFetch; id: string; client: string; poToken?: string }): Promise<PlayerCandidate | Refusal> {
  const { yt, fetch, id, client, poToken } = opts;
  const script = await getPlayer(fetch);
  const body = await fetchPlayer(yt, id, client, script.signature_timestamp, poToken);
  const refusal = refusalOf(body, client, `${client} (with player script)`);
  if (refusal) return refusal;
  const info = parseVideoInfo(yt, body);
  const { all } = formatsOf(info);
  await decipherFormats(all as Parameters<typeof decipherFormats>[0], script);
  return { client, player: body, info, streams: streamsOf(all), deciphered: true };
}

/** One rung: the client's answer (possibly without adaptive streams), or its refusal. */
async function askClient(opts: { yt: Innertube; fetch: OutboundFetch; id: string; client: string; logger: Logger; poToken?: string }): Promise<PlayerCandidate | Refusal> {
  const { yt, fetch, id, client, logger, poToken } = opts;
  let body: unknown;
  try {
    body = await fetchPlayer(yt, id, client, undefined, poToken);
  } catch (err) {
    if (!isEngineError(err)) throw err;
    return new Refusal(err);
  }
  const refusal = refusalOf(body, client);
  if (refusal) return refusal;
  const info = parseVideoInfo(yt, body);
  const { adaptive, all } = formatsOf(info);
  const candidate: PlayerCandidate = { client, player: body, info, streams: streamsOf(all) };
  if (adaptive.length === 0 || adaptive.some(hasDirectUrl)) return candidate;
  if (!adaptive.some(needsDecipher)) {
    logger.info({ client, videoId: id, directStreams: candidate.streams.length }, "youtube: adaptive formats have no URL (SABR-only); trying the next client");
    return { ...candidate, sabrOnly: true };
  }
  try {
    const deciphered = await decipherCandidate({ yt, fetch, id, client, poToken });
    if (deciphered instanceof Refusal || deciphered.streams.some((s) => s.kind !== "progressive")) return deciphered;
    logger.info({ client, videoId: id }, "youtube: deciphered formats gave no adaptive streams; trying the next client");
  } catch (err) {
    // Script not found or changed, sandbox timeout, refused request: this client did not work;
    // what it gave directly (if anything) still counts.
    if (!isEngineError(err)) throw err;
    logger.warn({ err, client, videoId: id }, "youtube: deciphering failed; trying the next client");
  }
  return candidate;
}

/** Best URL per itag: the first answer that has it wins (answers come ordered best first). */
function mergeStreams(answers: PlayerCandidate[]): UpstreamStream[] {
  const byId = new Map<string, UpstreamStream>();
  for (const answer of answers) for (const s of answer.streams) if (!byId.has(s.id)) byId.set(s.id, s);
  return [...byId.values()];
}

/**
 * The answers (in the order asked) as one: streams merged best URL per itag, answers that need no
 * token we lack first; the others only count when the first lack video or audio. `primary`
 * is the answer the details and captions come from: the first in that order with a stream.
 */
export function mergeAnswers(answers: PlayerCandidate[]): { streams: UpstreamStream[]; primary?: PlayerCandidate; merged: string[] } {
  const open = answers.filter((a) => !lacksToken(a));
  const pool = hasAdaptivePair(mergeStreams(open)) ? open : [...open, ...answers.filter(lacksToken)];
  const streams = mergeStreams(pool);
  const merged = pool.filter((a) => a.streams.some((s) => streams.includes(s))).map((a) => a.client);
  const found = pool.find((a) => a.streams.length > 0);
  if (!found || !captionsNeedToken(found.info)) return { streams, primary: found, merged };
  // captions from the first answer (any client: a caption URL is no media URL) whose tracks need no token
  const captions = answers.find((a) => (a.info.captions?.caption_tracks?.length ?? 0) > 0 && !captionsNeedToken(a.info));
  return { streams, primary: captions ? { ...found, captionsInfo: captions.info } : found, merged };
}

/**
 * The error to show when no client gave a stream: the first refusal that is not "not found"; else
 * "no formats" when a client did play the video (without a URL we can fetch); "not found" only
 * when every client said so.
 */
function verdictOf(refusals: Refusal[], answered: boolean, asked: readonly string[]): EngineError {
  const told = refusals.find((r) => r.error.code !== "video.not_found");
  if (told) return told.error;
  if (answered || refusals.length === 0) return new EngineError("video.no_formats", { detail: `no direct streams from ${asked.join(", ")}` });
  return refusals[0]!.error;
}

/** The ladder's end: the answer to use (`complete` when it has video and audio of an open client), or why none. */
/** `attempts`: each client asked and how it did (a refusal about the video itself is no client's failure: left out) */
export type LadderResult =
  | { ok: true; picked: PlayerCandidate; complete: boolean; asked: string[]; attempts: ClientAttempt[] }
  /** `final`: a refusal about the video itself, which no other client or extractor would change */
  | { ok: false; error: EngineError; final: boolean; asked: string[]; attempts: ClientAttempt[] };

export async function pickPlayer(opts: {
  yt: Innertube;
  fetch: OutboundFetch;
  id: string;
  clients: readonly string[];
  logger: Logger;
  /** the configured token provider: asked (once per video, po-token.ts caches) when a client a web token serves comes up */
  poTokens?: PoTokenSource;
}): Promise<LadderResult> {
  const { yt, fetch, id, clients, logger, poTokens } = opts;
  const ladder = [...clients];
  const answers: PlayerCandidate[] = [];
  const refusals: Refusal[] = [];
  const attempts: ClientAttempt[] = [];
  for (let i = 0; i < ladder.length; i++) {
    const client = ladder[i]!;
    // undefined when the provider is down: the client is asked as it would be without one
    const poToken = poTokens && takesWebToken(client) ? await poTokens.tokenFor(id) : undefined;
    const asked = await askClient({ yt, fetch, id, client, logger, poToken });
    const outcome = poToken && !(asked instanceof Refusal) ? withToken(asked, poToken) : asked;
    if (outcome instanceof Refusal) {
      if (outcome.final) return { ok: false, error: outcome.error, final: true, asked: ladder.slice(0, i + 1), attempts };
      attempts.push({ client, ok: false, code: outcome.error.code });
      logger.warn({ client, videoId: id, code: outcome.error.code, detail: outcome.error.detail }, "youtube: client refused; trying the next client");
      refusals.push(outcome);
      if (outcome.error.code === "video.age_restricted" && outcome.verdict?.embeddable && !ladder.includes(EMBEDDED_CLIENT)) ladder.push(EMBEDDED_CLIENT);
      continue;
    }
    answers.push(outcome);
    attempts.push(attemptOf(outcome));
    if (isComplete(outcome)) break;
    if (lacksToken(outcome) && outcome.streams.length > 0 && i < ladder.length - 1) {
      logger.info({ client, videoId: id }, "youtube: formats need a proof-of-origin token; trying the next client");
    }
  }
  // the clients asked, in order (one asked twice for deciphering counts once)
  const asked = ladder.slice(0, answers.length + refusals.length);

  const { streams, primary, merged } = mergeAnswers(answers);
  if (!primary) return { ok: false, error: verdictOf(refusals, answers.length > 0, asked), final: false, asked, attempts };
  // video and audio that need no token we lack: nothing further (yt-dlp) could do better
  const complete = hasAdaptivePair(mergeStreams(answers.filter((a) => !lacksToken(a))));
  if (!hasAdaptivePair(streams)) logger.warn({ clients: asked, videoId: id }, "youtube: no client gave adaptive URLs; using the progressive streams");
  else if (merged.length > 1) logger.info({ clients: merged, videoId: id }, "youtube: formats merged from several clients");
  // the details and captions are the primary answer's; the streams every answer's
  return { ok: true, picked: { ...primary, streams }, complete, asked, attempts };
}
