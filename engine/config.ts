import type { Logger } from "pino";

/**
 * Everything the engine needs from the outside, passed in by the host (server/). The engine
 * never reads process.env itself, so tests can build engines with any settings side by side.
 */
export interface EngineConfig {
  /** local state (generated signing secret, caches) */
  dataDir: string;
  /** canonical origin used to build absolute download links */
  publicUrl: string;
  /** HMAC secret for signed download links */
  signingSecret: string;
  /** raw OUTBOUND_HOST_MAP value (`host=origin,…`, a host may start with `*.`) */
  hostMap?: string;
  /** allow user links that resolve to loopback/private addresses */
  allowPrivateSources: boolean;
  /**
   * the ways out (engine/outbound/egress.ts): raw OUTBOUND_PROXIES (http://, https:// or socks5://
   * URLs, optional user:password) and OUTBOUND_IPV6_CIDR (a routed prefix to take source addresses
   * from); unset: every request leaves from this host's own address
   */
  egress?: { proxies?: string; ipv6Cidr?: string };
  youtube: {
    /** InnerTube clients in the order they are tried */
    clients: string[];
    apiKey?: string;
    apiBaseUrl: string;
    /** YOUTUBE_POT_PROVIDER_URL: a bgutil-protocol proof-of-origin token provider (engine/sources/youtube/po-token.ts) */
    potProviderUrl?: string;
    /** SPONSORBLOCK_API_URL: SponsorBlock's API (engine/sources/youtube/sponsorblock.ts); absent: its public server */
    sponsorBlockApiUrl?: string;
  };
  ffmpegPath?: string;
  ffprobePath?: string;
  /** YTDLP_PATH; unset = `yt-dlp` on PATH, if any; "" = no yt-dlp even when one is installed */
  ytdlpPath?: string;
  /** how long one yt-dlp metadata run may take (default 30 s) */
  ytdlpTimeoutMs?: number;
  limits: {
    /** downloads streaming at once, server-wide; beyond it: "busy, try again in N s" */
    maxConcurrentDownloads: number;
    /** full downloads one IP may start per hour (fair use, counted when a link starts streaming); 0 disables */
    downloadsPerIpPerHour: number;
    /** downloads one IP may stream at once; 0 disables (default 10) */
    maxConcurrentDownloadsPerIp?: number;
    /** streams one download link may run at once, e.g. a resume next to a stalled attempt (default 2) */
    maxConcurrentStreamsPerLink?: number;
    /** HLS/DASH segments fetched in parallel per download */
    segmentConcurrency: number;
    /** size of the first upstream range request of a direct stream; each one delivered whole doubles the next */
    chunkBytes: number;
    /** the most one range request grows to (default 64 MiB); a stream's own limit (`maxRequestBytes`) may be lower */
    maxChunkBytes?: number;
    /** ranges of one direct stream fetched in parallel when its upstream throttles each connection (default 6) */
    rangeConcurrency?: number;
    /** connections open at once to one upstream host, across all downloads; 0 = no cap (default 64) */
    maxConnectionsPerHost?: number;
    /** lifetime of a signed download link */
    linkTtlSeconds: number;
    /** how long a resolve result is reused */
    resolveCacheSeconds: number;
    /** per-attempt timeout for outbound requests */
    outboundTimeoutMs: number;
  };
  logger: Logger;
}
