/**
 * The adapter interface every source implements (a registry chosen by link, with one
 * uniform result). Adapters get everything from the context: the outbound fetch
 * (never the global fetch), configuration, logger and the located media tools.
 */
import type { Logger } from "pino";
import type { ParsedLink, PlaylistLink } from "#common/links.ts";
import type { EngineConfig } from "../config.ts";
import type { MediaTools } from "../media/ffmpeg.ts";
import type { EgressDialer } from "../outbound/egress.ts";
import type { OutboundFetch } from "../outbound/outbound-fetch.ts";
import type { EgressRef, Platform, ResolvedMedia, SourceResult, UpstreamStream } from "../types.ts";

export type { ParsedLink, PlaylistLink };

/** One video of a playlist, as the playlist lists it (issue 30 §3). */
export interface PlaylistEntry {
  /** the video's own link (a watch link, a platform video link) */
  url: string;
  title: string;
  /** seconds, when the listing says */
  durationSeconds: number | null;
  /** an image URL for the browser, when the listing has one */
  thumbnail: string | null;
}

/** A playlist's title and its videos in order: the first page the platform gives, at least. */
export interface PlaylistListing {
  title: string;
  /** the playlist's canonical link */
  url: string;
  entries: PlaylistEntry[];
  /** how many videos the platform says the playlist holds, when it says (may exceed entries) */
  total: number | null;
}

/**
 * How one client of a platform's ladder did (YouTube's InnerTube clients, `ytdlp` for yt-dlp), for
 * the host's counts per client (issue 32 §5): `ok` when its answer alone had open video and audio;
 * otherwise why not: the catalogue's code of its refusal, or one of the ladder's own verdicts on an
 * answer it could not use alone (`client.sabr_only`: formats without URLs; `client.needs_token`:
 * formats that need a proof-of-origin token it was not given).
 */
export interface ClientAttempt {
  client: string;
  ok: boolean;
  code: string | null;
}

export interface SourceContext {
  /** the outbound door, bound to this resolve's egress */
  fetch: OutboundFetch;
  /**
   * the egress this resolve goes out by, and how to connect that way (null: this host's own
   * address): what the source fetches itself (yt-dlp's proxy) must leave the same way
   */
  egress?: { ref: EgressRef; dialer: EgressDialer | null };
  config: EngineConfig;
  logger: Logger;
  media: MediaTools;
  /**
   * Set when this resolve serves a download being created: an adapter that knows streams (and
   * their segments) before it is done describing them (probing) says so here, and the engine
   * starts fetching the segments that download will likely read (docs/decisions/025).
   */
  streamsKnown?: (streams: UpstreamStream[]) => void;
  /** aborted once nobody waits for this resolve any more (its clients left): work in progress may stop */
  signal?: AbortSignal;
  /** who asked (the client's address), for a fair share of scarce work such as yt-dlp runs */
  client?: string;
  /**
   * clients of the platform not to ask (YouTube's InnerTube clients, upper-case): set when a
   * download's URLs from them were refused and it asks for the next client (stream-refresh.ts)
   */
  avoidClients?: readonly string[];
  /** a playlist listing may stop once it knows this many entries (the caller's cap plus one) */
  playlistEnough?: number;
  /**
   * ask only these clients (a `YOUTUBE_CLIENTS` subset, `ytdlp` included), in this order, whatever
   * the configured order and its ranking: the canary checks one client at a time
   */
  onlyClients?: readonly string[];
  /**
   * the host's ranking of the configured clients (EngineDeps.clientOrder): the same names, the
   * order to ask them in (a client failing its canaries moves down); absent, the configured order
   */
  clientOrder?: (configured: readonly string[]) => readonly string[];
  /** hears how each client asked did (the host counts them per client) */
  reportClient?: (attempt: ClientAttempt) => void;
}

export interface SourceAdapter {
  platform: Platform;
  matches(link: ParsedLink): boolean;
  resolve(link: ParsedLink, ctx: SourceContext): Promise<SourceResult<ResolvedMedia>>;
  /** whether this adapter lists the playlists of such links */
  listsPlaylist?(link: PlaylistLink): boolean;
  /** a playlist's entries (`media` is the listing) */
  listPlaylist?(link: PlaylistLink, ctx: SourceContext): Promise<SourceResult<PlaylistListing>>;
  /** stops what the adapter runs on its own (child processes, a local proxy); called by engine.close() */
  close?(): Promise<void>;
}
