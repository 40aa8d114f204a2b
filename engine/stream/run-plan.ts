import { Readable } from "node:stream";
import type { Logger } from "pino";
import { fetchTranscript } from "../captions/index.ts";
import { EngineError, isEngineError, redactUrls } from "../errors.ts";
import { ffmpegArgsForPlan, loudnessMeasureArgs, runFfmpeg, smartCutReaderArgs, type MediaTools } from "../media/ffmpeg.ts";
import { parseLoudnormJson, type LoudnessMeasure } from "../media/loudness/loudness.ts";
import { processSpawnGate, type SpawnGate } from "../media/spawn-gate.ts";
import { fetchCover, openTaggedPassthrough, prepend, withFileTags } from "../media/tags/tag-stream.ts";
import type { CoverImage } from "../media/tags/tag-fields.ts";
import type { MediaPlan, UpstreamStream } from "../types.ts";
import { isAbortError } from "./abort-error.ts";
import type { Outbound } from "../outbound/outbound-fetch.ts";
import { readAll } from "../outbound/outbound-fetch.ts";
import { openWithRequest } from "../outbound/upstream-request.ts";
import { GROWN_CHUNK_CEILING } from "./chunk-growth.ts";
import { DEFAULT_RANGE_CONCURRENCY, openRangedSource } from "./ranged-reader.ts";
import type { RefusalLadder } from "./refusal-ladder.ts";
import type { SegmentPrefetch } from "./segment-prefetch.ts";
import { openSegmentSource } from "./segment-reader.ts";
import { CLIP_READ_LIMITS, openClipInputs, withClipLeads } from "../media/clip/clip-inputs.ts";
import { recutSegments } from "../media/clip/plan-clip.ts";
import { fetchSubtitleFile, type ReadCues } from "../captions/subtitle-file.ts";
import { openSmartCut, type SmartCut } from "../media/clip/smart-cut.ts";
import { CUT_AUDIO_BUFFER_BYTES, joinCutInputs, smartCutCodec, muxPlanAfterSmartCut, smartCutVideoIndex, withCutParameterSets } from "../media/clip/smart-cut-plan.ts";
import { openIvfSmartCut } from "../media/clip/smart-cut-ivf.ts";

/**
 * Executes a MediaPlan into a byte stream plus the response headers that describe it. Readers
 * for every input are opened first, so most failures (expired URL, blocked address, missing
 * track) surface before any header is sent and reach the user as a clear JSON error.
 */
export interface RunContext {
  outbound: Pick<Outbound, "open" | "fetch">;
  media: MediaTools;
  limits: { chunkBytes: number; maxChunkBytes?: number; segmentConcurrency: number; rangeConcurrency?: number };
  logger: Logger;
  /** re-resolves the media and returns the current version of the stream with this id (403 → fresh URL) */
  refreshStream?: (stream: UpstreamStream) => Promise<UpstreamStream>;
  /** the download's answer to a refusal (smaller ranges) and its budgets, shared by its inputs */
  refusals?: RefusalLadder;
  /** aborted when the download is torn down */
  signal: AbortSignal;
  /** ffmpeg shutdown grace (SIGTERM → SIGKILL), ms */
  killGraceMs?: number;
  /** one ffmpeg spawn per event-loop turn (default: the process-wide gate) */
  spawnGate?: SpawnGate;
  /** segments fetched for this download before it opened (docs/decisions/025) */
  prefetch?: Pick<SegmentPrefetch, "take">;
  /** how a subtitled file reads its caption track (default: one fetch of its own; a chapter ZIP's files share one, docs/decisions/070) */
  readCues?: ReadCues;
}

export interface PlanOutput {
  status: 200 | 206;
  headers: Record<string, string>;
  body: Readable;
  /** bytes the body will carry, when known */
  length: number | null;
  /** idempotent: stops ffmpeg and aborts every upstream request */
  teardown(): void;
}

/** A single `bytes=` range, resolved against the total size; null = serve everything; "invalid" = 416. */
export function parseRange(header: string | undefined, total: number | null): { start: number; end: number } | null | "invalid" {
  if (!header || total === null) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return null; // multiple or odd ranges: serve the whole file (allowed by RFC 9110)
  const [, a, b] = m;
  if (a === "" && b === "") return null;
  let start: number;
  let end: number;
  if (a === "") {
    const suffix = Number(b);
    if (suffix === 0) return "invalid";
    start = Math.max(0, total - suffix);
    end = total - 1;
  } else {
    start = Number(a);
    end = b === "" ? total - 1 : Math.min(Number(b), total - 1);
  }
  if (start >= total || start > end) return "invalid";
  return { start, end };
}

/** Segments this short or shorter are fetched a third more at once (docs/decisions/022). */
export const SHORT_SEGMENT_SECONDS = 2;

/**
 * How many segments one rendition keeps in flight: the configured number, or a third more for
 * short segments. Those downloads are bound by round trips (one per segment), and their window
 * of fetched-ahead segments (twice this number) holds fewer bytes than the configured number of
 * ordinary 4–6 s segments would. The median duration decides; unknown durations change nothing.
 */
export function segmentsInFlight(configured: number, segments: readonly { durationSeconds?: number }[]): number {
  const durations = segments.map((s) => s.durationSeconds).filter((d): d is number => typeof d === "number" && d > 0).sort((a, b) => a - b);
  if (durations.length === 0) return configured;
  const median = durations[Math.floor(durations.length / 2)]!;
  return median <= SHORT_SEGMENT_SECONDS ? Math.floor((configured * 4) / 3) : configured;
}

/** The most one range request of `stream` asks for: the engine's ceiling, or the platform's own limit when lower. */
export function requestCeiling(stream: UpstreamStream, configured: number | undefined): number {
  const own = stream.transport.type === "direct" ? stream.transport.maxRequestBytes : undefined;
  return Math.min(configured ?? GROWN_CHUNK_CEILING, own !== undefined && own > 0 ? own : Infinity);
}

/** One stream's bytes through the engine's readers: a segmented one in order, a direct one (or its `range`) by ranged requests. */
export async function openInput(
  stream: UpstreamStream,
  ctx: RunContext,
  range?: { start: number; end?: number },
): Promise<{ body: Readable; length: number | null; contentType: string | null; total: number | null }> {
  let current = stream;
  // the stream's own headers and cookies on every request, the refreshed stream's once it is refreshed
  const open = openWithRequest(ctx.outbound.open, () => current.request);
  if (stream.transport.type === "segments") {
    const input = stream.transport;
    const body = openSegmentSource({
      open,
      init: stream.transport.init,
      segments: stream.transport.segments,
      concurrency: segmentsInFlight(ctx.limits.segmentConcurrency, stream.transport.segments),
      refresh: ctx.refreshStream
        ? async () => {
            current = await ctx.refreshStream!(current);
            if (current.transport.type !== "segments") throw new EngineError("upstream.expired", { detail: "the stream is no longer segmented" });
            // a clip's input holds its covering segments only: the fresh list is cut the same way
            return { init: current.transport.init, segments: recutSegments(input, current.transport.segments) };
          }
        : undefined,
      logger: ctx.logger,
      signal: ctx.signal,
      prefetched: ctx.prefetch ? (ref, signal) => ctx.prefetch!.take(ref, signal) : undefined,
      refusals: ctx.refusals,
    });
    return { body, length: null, contentType: null, total: null };
  }
  const src = await openRangedSource({
    open,
    url: stream.url,
    chunkBytes: ctx.limits.chunkBytes,
    maxChunkBytes: requestCeiling(stream, ctx.limits.maxChunkBytes),
    rangeConcurrency: ctx.limits.rangeConcurrency ?? DEFAULT_RANGE_CONCURRENCY,
    start: range?.start,
    end: range?.end ?? (stream.contentLength ? stream.contentLength - 1 : undefined),
    refresh: ctx.refreshStream
      ? async () => {
          current = await ctx.refreshStream!(current);
          return current.url;
        }
      : undefined,
    refusals: ctx.refusals,
    logger: ctx.logger,
    signal: ctx.signal,
  });
  return { body: src.stream, length: src.length, contentType: src.contentType, total: src.total };
}

const noop = () => undefined;

/** Waits for the first chunk (or the end/failure) of a stream, so early failures come before headers. */
function firstChunk(body: Readable, signal: AbortSignal): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      body.off("readable", onReadable);
      body.off("end", onEnd);
      body.off("error", onError);
      body.off("close", onClose);
      signal.removeEventListener("abort", onAbort);
    };
    const onReadable = () => {
      const chunk = body.read() as Buffer | null;
      if (chunk === null) return;
      cleanup();
      resolve(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onClose = () => {
      cleanup();
      reject(new EngineError("download.failed", { detail: "output closed before any data" }));
    };
    const onAbort = () => {
      cleanup();
      reject(new EngineError("download.failed", { detail: "aborted", cause: signal.reason }));
    };
    body.on("readable", onReadable);
    body.once("end", onEnd);
    body.once("error", onError);
    body.once("close", onClose);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export async function runPlan(plan: MediaPlan, ctx: RunContext, opts: { range?: string } = {}): Promise<PlanOutput> {
  // The run's own signal: aborted by the caller's signal and by teardown, so an input still
  // opening when the run is torn down (another input failed) stops too.
  const runController = new AbortController();
  const onOuterAbort = () => runController.abort(ctx.signal.reason);
  if (ctx.signal.aborted) runController.abort(ctx.signal.reason);
  else ctx.signal.addEventListener("abort", onOuterAbort, { once: true });
  const run: RunContext = { ...ctx, signal: runController.signal };

  const opened: Readable[] = [];
  let stop: () => void = () => {};
  let tornDown = false;
  /** an input that failed before ffmpeg took it over */
  let earlyFailure: Error | null = null;
  const teardown = () => {
    if (tornDown) return;
    tornDown = true;
    ctx.signal.removeEventListener("abort", onOuterAbort);
    stop();
    for (const r of opened) if (!r.destroyed) r.destroy();
    // last: what is still opening stops; what was opened is already destroyed without an error
    runController.abort();
  };
  /**
   * Registers a stream this run created, with an 'error' listener from the start: a reader can
   * fail, or be aborted by a teardown, while nothing consumes it yet (its sibling input is still
   * opening, ffmpeg waits for its spawn turn), and an 'error' nobody listens to kills the process.
   * Errors a teardown causes are expected; others are kept to fail the run before its headers
   * go out, or logged when no consumer reports them.
   */
  const track = <T extends Readable>(stream: T): T => {
    if (tornDown) {
      // opened after the run was torn down: nobody will ever read it
      stream.on("error", noop);
      stream.destroy();
      return stream;
    }
    opened.push(stream);
    stream.on("error", (err: Error) => {
      // the consumer (ffmpeg, the response) reports what reaches it
      if (stream.listenerCount("error") > 1) return;
      if (!tornDown && !runController.signal.aborted) {
        earlyFailure ??= err;
        return;
      }
      if (isAbortError(err)) return;
      ctx.logger.warn({ err: redactUrls(err.message), code: isEngineError(err) ? err.code : undefined }, "media stream failed after its download stopped");
    });
    return stream;
  };
  /** an output read whole before the headers (an image, a transcript) */
  const whole = (mimeType: string, data: Buffer): PlanOutput => ({
    status: 200,
    headers: { "content-type": mimeType, "content-length": String(data.length) },
    body: Readable.from([data]),
    length: data.length,
    teardown,
  });
  // the cover is fetched beside the media: a slow or failing one costs the file its cover, never the file
  const tags = plan.op === "passthrough" || plan.op === "remux" || plan.op === "transcode" ? plan.tags : undefined;
  const cover: Promise<CoverImage | null> = tags?.cover ? fetchCover(tags.cover.url, { open: ctx.outbound.open, signal: runController.signal, logger: ctx.logger }) : Promise.resolve(null);
  try {
    switch (plan.op) {
      case "passthrough": {
        if (tags && plan.input.transport.type === "direct") {
          const tagged = await openTaggedPassthrough({
            tags,
            cover,
            total: plan.input.contentLength ?? null,
            range: opts.range,
            signal: run.signal,
            open: async (range) => {
              const input = await openInput(plan.input, run, range);
              track(input.body);
              return input;
            },
            parseRange,
            rangeInvalid: (total) => new EngineError("download.range_invalid", { detail: `bytes */${total}` }),
          });
          const headers: Record<string, string> = { "content-type": plan.mimeType, "accept-ranges": "bytes" };
          if (tagged.length !== null) headers["content-length"] = String(tagged.length);
          if (tagged.contentRange) headers["content-range"] = tagged.contentRange;
          return { status: tagged.status, headers, body: track(tagged.body), length: tagged.length, teardown };
        }
        const total = plan.bytes ?? plan.input.contentLength ?? null;
        const range = plan.input.transport.type === "direct" ? parseRange(opts.range, total) : null;
        if (range === "invalid") {
          throw new EngineError("download.range_invalid", { detail: `bytes */${total}` });
        }
        const input = await openInput(plan.input, run, range ?? undefined);
        track(input.body);
        const headers: Record<string, string> = { "content-type": plan.mimeType };
        if (plan.input.transport.type === "direct") headers["accept-ranges"] = "bytes";
        if (input.length !== null) headers["content-length"] = String(input.length);
        if (range && total !== null) {
          headers["content-range"] = `bytes ${range.start}-${range.end}/${total}`;
          return { status: 206, headers, body: input.body, length: input.length, teardown };
        }
        return { status: 200, headers, body: input.body, length: input.length, teardown };
      }
      case "image": {
        const res = await ctx.outbound.open(plan.url, { signal: run.signal, maxBytes: 20 * 1024 * 1024 });
        if (res.status !== 200) {
          res.body.resume();
          throw new EngineError("thumbnail.unavailable", { detail: `image answered ${res.status}` });
        }
        const data = await readAll(res.body);
        if (data.length === 0) throw new EngineError("thumbnail.unavailable", { detail: "empty image" });
        return whole(plan.mimeType, data);
      }
      case "text": {
        const text = await fetchTranscript(plan.track, plan.kind, ctx.outbound.fetch);
        if (text.trim().length === 0) throw new EngineError("transcript.unavailable", { detail: "caption track is empty" });
        return whole(plan.mimeType, Buffer.from(text, "utf8"));
      }
      case "remux":
      case "transcode": {
        const streams = plan.op === "remux" ? plan.inputs : [plan.input];
        const openPiped = async (s: UpstreamStream) => track((await openInput(s, run)).body);
        // a clip: direct inputs are served to ffmpeg on loopback, to seek in (docs/decisions/061)
        let ffmpegOutput: Readable | null = null;
        const openClip = (inputs: UpstreamStream[]) =>
          openClipInputs(inputs, {
            openPiped,
            openRange: async (s, range, signal) => {
              const read = await openInput(s, { ...run, limits: { ...run.limits, ...CLIP_READ_LIMITS }, signal: AbortSignal.any([run.signal, signal]) }, range);
              return { body: read.body, total: read.total };
            },
            signal: run.signal,
            onFailure: (err) => {
              earlyFailure ??= err;
              ffmpegOutput?.destroy(err);
            },
          });
        const openInputs = async () => {
          const clipInputs = plan.clip ? await openClip(streams) : null;
          return { clipInputs, inputs: clipInputs ? clipInputs.pipes : await Promise.all(streams.map(openPiped)) };
        };
        // an exact clip of H.264 or VP9 re-encodes only its first and last GOP (docs/decisions/072)
        const smartIndex = smartCutVideoIndex(plan);
        let cut: SmartCut | null = null;
        const openSmartCutInputs = async (remux: Extract<MediaPlan, { op: "remux" }>, index: number) => {
          const source = await openClip([remux.inputs[index]!]);
          await (ctx.spawnGate ?? processSpawnGate).turn(run.signal);
          const video = remux.inputs[index]!;
          // H.264 copied as MPEG-TS, VP9 and AV1 as IVF (a muxed VP9's or AV1's audio to a pipe of its own, after the input's)
          const codec = smartCutCodec(video.vcodec);
          const audioApart = codec !== "h264" && video.kind === "progressive";
          const audioPipe = audioApart ? 3 + source.pipes.length : undefined;
          const readerArgs = smartCutReaderArgs(remux.clip!.seeks[index]! + (source.leads[0] ?? 0), source.urls[0] ?? null, remux.clip!.duration, video.kind === "progressive", codec, audioPipe);
          const outputs = audioApart ? [{ highWaterMark: CUT_AUDIO_BUFFER_BYTES }] : [];
          const reader = runFfmpeg(ctx.media, readerArgs, source.pipes, { killGraceMs: ctx.killGraceMs, warm: null, outputs });
          reader.outputs.forEach(track);
          reader.exited.then(() => source.loopbacks.forEach((l) => l.close()), noop);
          const turn = () => (ctx.spawnGate ?? processSpawnGate).turn(run.signal);
          const cutOptions = { media: ctx.media, reader, duration: remux.clip!.duration, turn, killGraceMs: ctx.killGraceMs, signal: run.signal };
          const smartCut = codec === "h264" ? openSmartCut(cutOptions) : openIvfSmartCut(cutOptions, codec);
          cut = smartCut;
          track(smartCut.video);
          const { plan: muxPlan, cutIndex, audioIndex } = muxPlanAfterSmartCut(remux, index, await smartCut.firstFrame);
          const rest = await openClip(muxPlan.inputs.filter((_, i) => i !== cutIndex && i !== audioIndex));
          return { muxPlan, clipInputs: joinCutInputs(cutIndex, smartCut.video, rest, reader.outputs[0]) };
        };
        // the subtitles first (docs/decisions/069): a track that cannot be read fails the download before any media is fetched
        const subtitles = await fetchSubtitleFile(plan, ctx.outbound.fetch, run.signal, ctx.readCues);
        // a normalised file measured first: the audio is fetched twice (docs/decisions/066)
        const measured = plan.op === "transcode" && plan.loudness?.passes === 2 ? await measureLoudness(plan, openInputs, run) : null;
        if (earlyFailure) throw earlyFailure;
        const smart = plan.op === "remux" && smartIndex !== null ? await openSmartCutInputs(plan, smartIndex) : null;
        const { clipInputs, inputs } = smart ? { clipInputs: smart.clipInputs, inputs: smart.clipInputs.pipes } : await openInputs();
        // Spawning blocks the event loop until ffmpeg has exec'd: one spawn per loop turn.
        await (ctx.spawnGate ?? processSpawnGate).turn(run.signal);
        // an input that broke while it waited would leave ffmpeg waiting on a silent pipe
        if (earlyFailure) throw earlyFailure;
        // a clip's command line is its own (its seek, its loopback URLs), as is one with a track's language and name: no process is started ahead for them
        const args = ffmpegArgsForPlan(withClipLeads(smart?.muxPlan ?? plan, clipInputs), clipInputs?.urls, measured, subtitles?.empty);
        const piped = subtitles ? [...inputs, track(Readable.from([subtitles.srt]))] : inputs;
        const ffmpeg = runFfmpeg(ctx.media, args, piped, { killGraceMs: ctx.killGraceMs, ...(clipInputs || subtitles ? { warm: null } : {}) });
        stop = () => {
          ffmpeg.shutdown();
          (cut as SmartCut | null)?.shutdown();
        };
        ffmpegOutput = ffmpeg.output;
        track(ffmpeg.output);
        ffmpeg.exited.then(
          (exit) => {
            // ffmpeg asks for nothing more: the loopback inputs close with it
            for (const loopback of clipInputs?.loopbacks ?? []) loopback.close();
            // an exact clip's cut: smart (frames copied, parts re-encoded) or whole, and why
            const smartCut = (cut as SmartCut | null)?.summary();
            ctx.logger.debug({ code: exit.code, signal: exit.signal, ...(clipInputs ? { seeks: clipInputs.loopbacks.map((l) => l.requests()) } : {}), ...(smartCut ? { smartCut } : {}) }, "ffmpeg exited");
          },
          () => undefined,
        );
        // A broken input usually makes ffmpeg fail at once: learn it before the headers go out.
        const first = await firstChunk(ffmpeg.output, run.signal).catch((err: unknown) => {
          // a clip's loopback read that failed says more than ffmpeg's I/O error
          throw earlyFailure ?? err;
        });
        if (first === null) throw earlyFailure ?? new EngineError("download.failed", { detail: "ffmpeg produced no output" });
        const muxed = track(prepend(first, ffmpeg.output));
        // the re-encoded pictures' parameter sets, listed beside the source's
        const output = cut ? track(await withCutParameterSets(muxed, (cut as SmartCut).parameterSets, run.signal)) : muxed;
        const body = tags ? track(await withFileTags(tags, cover, output, run.signal)) : output;
        return { status: 200, headers: { "content-type": plan.mimeType }, body, length: null, teardown };
      }
    }
  } catch (err) {
    teardown();
    throw isEngineError(err) ? err : new EngineError("download.failed", { cause: err, detail: (err as Error).message });
  }
}

/**
 * The first pass of a normalised transcode: ffmpeg decodes the input (and cut) once with
 * loudnorm measuring, writes nothing, and prints what it measured. A measure that fails to come
 * (silence, a broken input) leaves the one-pass filter; an input that fails fails the download.
 */
async function measureLoudness(
  plan: Extract<MediaPlan, { op: "transcode" }>,
  openInputs: () => Promise<{ clipInputs: Awaited<ReturnType<typeof openClipInputs>> | null; inputs: Readable[] }>,
  run: RunContext,
): Promise<LoudnessMeasure | null> {
  const { clipInputs, inputs } = await openInputs();
  await (run.spawnGate ?? processSpawnGate).turn(run.signal);
  const ffmpeg = runFfmpeg(run.media, loudnessMeasureArgs(plan, clipInputs?.urls), inputs, { killGraceMs: run.killGraceMs, warm: null });
  const onAbort = () => ffmpeg.shutdown();
  run.signal.addEventListener("abort", onAbort, { once: true });
  try {
    ffmpeg.output.on("error", noop).resume();
    const exit = await ffmpeg.exited;
    // the output is destroyed with an input's own error (the engine's code) before `exited` settles
    if (ffmpeg.output.errored) throw ffmpeg.output.errored;
    if (exit.code !== 0) throw new EngineError("download.failed", { detail: `loudness measure exited with ${exit.code ?? exit.signal}` });
    const measure = parseLoudnormJson(exit.stderrTail);
    run.logger.debug({ measure }, "loudness measured");
    return measure;
  } finally {
    run.signal.removeEventListener("abort", onAbort);
    for (const loopback of clipInputs?.loopbacks ?? []) loopback.close();
  }
}
