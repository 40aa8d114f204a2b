import { PLATFORM_IDS } from "#common/links.ts";
import { JOB_FILE_TTL_MS, MAX_SCHEDULE_AHEAD_MS } from "#app/modules/jobs/scheduled-jobs.server.ts";
import { JOB_KINDS, JOB_STATUSES } from "#db/schema/jobs.ts";
import { FORMAT_IDS } from "#engine/formats.ts";
import { API_ERROR_CODES } from "./api-errors.ts";

/**
 * The OpenAPI 3.1 description of /api/v1 (DESIGN §5), served at /api/v1/openapi.json. Kept next
 * to the router; the router test checks that every route here exists and vice versa.
 */
const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});
const jobResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Job" } } },
});
const jobId = { name: "id", in: "path", required: true, schema: { type: "string" } } as const;
/** The media options (issue 33 §7) a download or job request takes; `split`: one video, so `chapters: "split"` too. */
const mediaOptionRefs = (split: boolean) => ({
  ...Object.fromEntries(
    ([
      ["tags", "TagsOption"],
      ["start", "ClipTime"],
      ["end", "ClipTime"],
      ["exact", "ExactOption"],
      ["normalize", "NormalizeOption"],
      ["audioLanguage", "AudioLanguageOption"],
      ["sponsorblock", "SponsorBlockOption"],
      ["subtitles", "SubtitlesOption"],
    ] as const).map(([name, schema]) => [name, { $ref: `#/components/schemas/${schema}` }]),
  ),
  ...(split ? { chapters: { $ref: "#/components/schemas/ChaptersOption" } } : {}),
});
const HOURS_KEPT = JOB_FILE_TTL_MS / 3_600_000;
const DAYS_AHEAD = MAX_SCHEDULE_AHEAD_MS / 86_400_000;

export function openApiDocument(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "VidFetch API",
      version: "1.0.0",
      description:
        `Resolve a video link, list its formats, and stream the chosen file through a signed, expiring link; the file of a download link is never stored on the server. Scheduled downloads (/jobs) run later on the server's job queue and keep their file for ${HOURS_KEPT} hours for its owner. Calls are made as the owner of the API key in \`Authorization: Bearer <key>\` (Ultimate; 60 requests a minute per key, told in RateLimit-* headers), else as the signed-in account of the session cookie (vidfetch.session_token), with the plan it holds; without either, anonymously. Premium formats need the Pro or Ultimate plan (403 otherwise).`,
    },
    servers: [{ url: `${serverUrl.replace(/\/+$/, "")}/api/v1` }],
    paths: {
      "/resolve": {
        post: {
          operationId: "resolve",
          summary: "Video details and the formats available for a link, or a playlist's videos for a playlist link",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/LinkRequest" } } },
          },
          responses: {
            "200": {
              description: "Details and formats; for a playlist link `playlist` alone; for a video inside a playlist (watch?v=…&list=…) both",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      video: { $ref: "#/components/schemas/VideoDetails" },
                      formats: { type: "array", items: { $ref: "#/components/schemas/FormatOption" } },
                      subtitles: {
                        type: "array",
                        description: "the video's caption tracks; a track's `language` can be sent as `language` with srt, vtt or transcript",
                        items: {
                          type: "object",
                          required: ["language", "name", "auto", "translatable"],
                          properties: { language: { type: "string" }, name: { type: "string" }, auto: { type: "boolean", description: "made by speech recognition" }, translatable: { type: "boolean" } },
                        },
                      },
                      subtitleTranslations: {
                        type: "array",
                        description: "languages the translatable tracks can be machine-translated into",
                        items: { type: "object", required: ["language", "name"], properties: { language: { type: "string" }, name: { type: "string" } } },
                      },
                      chapters: {
                        type: "array",
                        description:
                          "the video's chapters in order, covering it from 0 to its end (YouTube's chapter markers, else timestamps in its description; yt-dlp's chapters); empty when it has none. MP4, M4A and MP3 files carry them",
                        items: {
                          type: "object",
                          required: ["title", "start", "end"],
                          properties: { title: { type: "string" }, start: { type: "number", description: "seconds" }, end: { type: "number", description: "seconds" } },
                        },
                      },
                      audioTracks: {
                        type: "array",
                        description:
                          "the video's audio tracks, one per language (dubbed languages, descriptive audio as en-desc); `default` is the original, which downloads carry unless audioLanguage names another; empty when the source names no language",
                        items: {
                          type: "object",
                          required: ["language", "name", "default"],
                          properties: { language: { type: "string" }, name: { type: "string" }, default: { type: "boolean" } },
                        },
                      },
                      playlist: { $ref: "#/components/schemas/Playlist" },
                    },
                  },
                },
              },
            },
            "400": errorResponse("Empty, invalid or unsupported link"),
            "403": errorResponse("Private, login-only, age-restricted, members-only or blocked video"),
            "404": errorResponse("Video not found"),
            "422": errorResponse("Live, upcoming or otherwise unavailable video, or a platform this server cannot handle (no yt-dlp)"),
            "429": errorResponse("Too many requests"),
            "502": errorResponse("Upstream error"),
            "503": errorResponse("The platform refuses the server right now"),
          },
        },
      },
      "/downloads": {
        post: {
          operationId: "createDownload",
          summary: "A signed, expiring link that streams one format, or one ZIP of several links (bulk)",
          description:
            "With `urls` (bulk downloads, a right of the plan table), the link streams application/zip as it is built: each link's file in order, then manifest.csv (position, title, source, format, file_name, bytes, sha256, status, error); a link that fails is a failed row and the others still arrive. A playlist link as `url` (Ultimate) gives the same ZIP of its videos in order; a playlist longer than the plan's links per ZIP is a 400 (bulk.too_many_links).",
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: { oneOf: [{ $ref: "#/components/schemas/DownloadRequest" }, { $ref: "#/components/schemas/BulkDownloadRequest" }] } },
            },
          },
          responses: {
            "200": { description: "The download link", content: { "application/json": { schema: { $ref: "#/components/schemas/Download" } } } },
            "400": errorResponse("Invalid link, unknown format id, or more links than the plan allows in one ZIP (bulk.too_many_links)"),
            "403": errorResponse("Premium format for a caller without premium, or a bulk download or subtitles in the video for a plan without them (plan.required)"),
            "422": errorResponse("Format not available for this video, a clip the source cannot give (clip.out_of_range, clip.unavailable), an audio language it lacks (audio.language_unavailable), subtitles it cannot carry (subtitles.unavailable), or a split by chapter of a video without chapters or of a format without a timeline (chapters.unavailable)"),
            "429": errorResponse("Fair-use limit reached (Retry-After header)"),
            "503": errorResponse("Server busy (Retry-After header)"),
          },
        },
      },
      "/download": {
        get: {
          operationId: "download",
          summary: "Redirect to a fresh signed link (for `curl -LOJ`)",
          parameters: [
            { name: "url", in: "query", required: true, schema: { type: "string" } },
            { name: "format", in: "query", required: true, schema: { $ref: "#/components/schemas/FormatId" } },
            { name: "language", in: "query", required: false, schema: { type: "string", maxLength: 35 }, description: "srt, vtt or transcript in this language (Pro, Ultimate)" },
            { name: "tags", in: "query", required: false, schema: { type: "string", enum: ["true", "false", "1", "0"], default: "true" }, description: "title, artist (the channel), date, the source link and the thumbnail as cover in MP3, M4A and AAC files; title, artist, date and description in MP4 (default true); false leaves the file bare" },
            { name: "normalize", in: "query", required: false, schema: { type: "string", enum: ["true", "false", "1", "0"], default: "false" }, description: "MP3, M4A and AAC: audio evened out to -14 LUFS, -1 dBTP (see NormalizeOption)" },
            { name: "audioLanguage", in: "query", required: false, schema: { type: "string", maxLength: 35 }, description: "MP4, WEBM, MP3, M4A, AAC with this audio track (see AudioLanguageOption)" },
            { name: "start", in: "query", required: false, schema: { $ref: "#/components/schemas/ClipTime" }, description: "a clip's first second (seconds or h:mm:ss); see ClipTime" },
            { name: "end", in: "query", required: false, schema: { $ref: "#/components/schemas/ClipTime" }, description: "a clip's last second (seconds or h:mm:ss); see ClipTime" },
            { name: "sponsorblock", in: "query", required: false, schema: { type: "string", maxLength: 200, examples: ["sponsor,selfpromo"] }, description: "SponsorBlock categories separated by commas (see SponsorBlockOption)" },
            { name: "sponsorblockAction", in: "query", required: false, schema: { type: "string", enum: ["cut", "chapters"], default: "cut" }, description: "what the sponsorblock segments become" },
            { name: "subtitles", in: "query", required: false, schema: { type: "string", maxLength: 35, examples: ["de"] }, description: "MP4 or WEBM with the subtitles in this language (Pro, Ultimate; see SubtitlesOption)" },
            { name: "subtitlesMode", in: "query", required: false, schema: { type: "string", enum: ["soft", "burn"], default: "soft" }, description: "soft: a selectable track; burn: drawn into the picture (re-encoded)" },
            { name: "exact", in: "query", required: false, schema: { type: "string", enum: ["true", "false", "1", "0"], default: "false" }, description: "cut a clip at the exact frames (re-encoded) instead of at the keyframe at or before start" },
            { name: "chapters", in: "query", required: false, schema: { $ref: "#/components/schemas/ChaptersOption" }, description: "split: one file per chapter, in a ZIP (see ChaptersOption)" },
          ],
          responses: {
            "302": { description: "Location: the signed download link", headers: { Location: { schema: { type: "string", format: "uri" } } } },
            "400": errorResponse("Invalid link or unknown format id"),
            "403": errorResponse("Premium format (format.premium), or subtitles in the video without Pro or Ultimate (plan.required)"),
            "422": errorResponse("Format not available, a clip the source cannot give (clip.out_of_range, clip.unavailable), an audio language it lacks (audio.language_unavailable), subtitles it cannot carry (subtitles.unavailable), or a split it cannot give (chapters.unavailable)"),
            "429": errorResponse("Fair-use limit reached"),
          },
        },
      },
      "/frame": {
        get: {
          operationId: "frame",
          summary: "A clip's first frame: a JPEG at most 320 px wide of the frame shown at t (the picker's preview)",
          parameters: [
            { name: "url", in: "query", required: true, schema: { type: "string" } },
            { name: "t", in: "query", required: true, schema: { type: "string", maxLength: 16, examples: ["90", "1:02:03", "1:02:03.5"] }, description: "seconds or h:mm:ss, before the video's end; see ClipTime" },
          ],
          responses: {
            "200": {
              description: "The frame (Cache-Control: private, max-age=300). Only what covers t of the video's lowest rendition that fills 320 px is fetched.",
              content: { "image/jpeg": { schema: { type: "string", format: "binary" } } },
            },
            "400": errorResponse("Invalid link, or t is not a time (request.invalid)"),
            "422": errorResponse("t at or past the video's end (clip.out_of_range), or a source without a picture or of unknown length (clip.unavailable)"),
            "429": errorResponse("More frames from this IP in a minute than RESOLVE_RATE_LIMIT_PER_MINUTE (download.rate_limited, Retry-After)"),
            "503": errorResponse("Previews busy (download.busy, Retry-After)"),
          },
        },
      },
      "/dl/{token}": {
        get: {
          operationId: "streamDownload",
          summary: "Stream the file (attachment). Passthrough formats support Range requests.",
          parameters: [
            { name: "token", in: "path", required: true, schema: { type: "string" } },
            { name: "Range", in: "header", required: false, schema: { type: "string", example: "bytes=0-1023" } },
          ],
          responses: {
            "200": {
              description: "The file (application/zip for a bulk link or a split by chapter). Content-Disposition: attachment with an ASCII filename and a UTF-8 filename*.",
              content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
            },
            "206": { description: "Part of the file (passthrough formats)" },
            "403": errorResponse("Invalid link"),
            "410": errorResponse("Expired link or expired upstream"),
            "416": errorResponse("Range not satisfiable"),
            "503": errorResponse("Server busy (Retry-After header)"),
          },
        },
      },
      "/downloads/{id}/progress": {
        get: {
          operationId: "downloadProgress",
          summary: 'Server-Sent Events: `data: {"bytes","total","state"}` until done, failed or aborted',
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            "200": { description: "Event stream", content: { "text/event-stream": { schema: { $ref: "#/components/schemas/Progress" } } } },
            "404": errorResponse("Unknown download id"),
          },
        },
      },
      "/jobs": {
        post: {
          operationId: "createJob",
          summary: "Schedule a download (Pro, Ultimate) or a ZIP of links or of a playlist (Ultimate), in one format, run at runAt (now when absent)",
          description:
            "The job runs on the server's queue at runAt; when it is done its file is kept for the owner, reached through a signed link (downloadUrl, also mailed). Jobs created in the last 24 hours count against the plan's jobs per day (Pro 20, Ultimate 100).",
          requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/JobRequest" } } } },
          responses: {
            "201": { description: "Scheduled", content: { "application/json": { schema: { $ref: "#/components/schemas/JobCreated" } } } },
            "400": errorResponse("Invalid link, format or runAt (job.invalid_link, job.invalid_format, job.invalid_run_at), more urls than the plan allows (job.too_many_links), or a body of the wrong shape"),
            "401": errorResponse("No session (job.login_required)"),
            "403": errorResponse("The caller's plan has no scheduled downloads, or no bulk downloads for urls or a playlist (plan.required)"),
            "413": errorResponse("Body too large"),
            "429": errorResponse("The plan's jobs per day are used up (job.daily_limit)"),
          },
        },
        get: {
          operationId: "listJobs",
          summary: "The caller's jobs, newest first (at most 100)",
          responses: {
            "200": { description: "The jobs", content: { "application/json": { schema: { $ref: "#/components/schemas/JobList" } } } },
            "401": errorResponse("No session (job.login_required)"),
          },
        },
      },
      "/jobs/{id}": {
        get: {
          operationId: "getJob",
          summary: "One of the caller's jobs",
          parameters: [jobId],
          responses: {
            "200": jobResponse("The job"),
            "401": errorResponse("No session (job.login_required)"),
            "404": errorResponse("No such job among the caller's (job.not_found)"),
          },
        },
        patch: {
          operationId: "rescheduleJob",
          summary: "Move a job that is still scheduled to another time",
          parameters: [jobId],
          requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/JobReschedule" } } } },
          responses: {
            "200": jobResponse("The job, at its new time"),
            "400": errorResponse("Invalid runAt (job.invalid_run_at)"),
            "401": errorResponse("No session (job.login_required)"),
            "403": errorResponse("The caller's plan has no scheduled downloads (plan.required)"),
            "404": errorResponse("No such job among the caller's (job.not_found)"),
            "409": errorResponse("The job has started or ended (job.not_changeable)"),
          },
        },
        delete: {
          operationId: "cancelJob",
          summary: "Cancel a job that is still scheduled",
          parameters: [jobId],
          responses: {
            "200": jobResponse("The job, now canceled"),
            "401": errorResponse("No session (job.login_required)"),
            "404": errorResponse("No such job among the caller's (job.not_found)"),
            "409": errorResponse("The job has started or ended (job.not_changeable)"),
          },
        },
      },
      "/keys": {
        post: {
          operationId: "createKey",
          summary: "Make an API key (Ultimate, session only): the key is in this answer only",
          security: [{ session: [] }],
          requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/KeyRequest" } } } },
          responses: {
            "201": { description: "The new key, shown once", content: { "application/json": { schema: { $ref: "#/components/schemas/CreatedKey" } } } },
            "400": errorResponse("A name that is empty, too long or holds control characters (key.invalid_name), or 10 keys already (key.too_many)"),
            "401": errorResponse("No session (key.login_required)"),
            "403": errorResponse("The plan has no API access (plan.required), or the request carried a key (key.session_only)"),
          },
        },
        get: {
          operationId: "listKeys",
          summary: "The account's keys that are not revoked, oldest first (session only; never the key itself)",
          security: [{ session: [] }],
          responses: {
            "200": { description: "The keys", content: { "application/json": { schema: { $ref: "#/components/schemas/KeyList" } } } },
            "401": errorResponse("No session (key.login_required)"),
            "403": errorResponse("The request carried a key (key.session_only)"),
          },
        },
      },
      "/profiles": {
        get: {
          operationId: "listProfiles",
          summary: "The account's download profiles (Ultimate), oldest first",
          responses: {
            "200": { description: "The profiles", content: { "application/json": { schema: { type: "object", required: ["profiles"], properties: { profiles: { type: "array", items: { $ref: "#/components/schemas/Profile" } } } } } } },
            "401": errorResponse("No account (profile.login_required)"),
          },
        },
        post: {
          operationId: "createProfile",
          summary: "Save a download profile (Ultimate): a format, a subtitle language and a file-name template",
          requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/ProfileRequest" } } } },
          responses: {
            "201": { description: "The profile", content: { "application/json": { schema: { $ref: "#/components/schemas/Profile" } } } },
            "400": errorResponse("A bad name, format, language or template (profile.invalid), or 20 profiles already (profile.too_many)"),
            "401": errorResponse("No account (profile.login_required)"),
            "403": errorResponse("The plan has no download profiles (plan.required)"),
          },
        },
      },
      "/profiles/{id}": {
        patch: {
          operationId: "updateProfile",
          summary: "Change a download profile",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/ProfileRequest" } } } },
          responses: {
            "200": { description: "The profile", content: { "application/json": { schema: { $ref: "#/components/schemas/Profile" } } } },
            "400": errorResponse("A bad name, format, language or template (profile.invalid)"),
            "404": errorResponse("Not one of the caller's profiles (profile.not_found)"),
          },
        },
        delete: {
          operationId: "deleteProfile",
          summary: "Delete a download profile",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: { "204": { description: "Deleted" }, "404": errorResponse("Not one of the caller's profiles (profile.not_found)") },
        },
      },
      "/keys/{id}": {
        delete: {
          operationId: "revokeKey",
          summary: "Revoke a key at once (session only)",
          security: [{ session: [] }],
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            "204": { description: "Revoked" },
            "401": errorResponse("No session (key.login_required)"),
            "403": errorResponse("The request carried a key (key.session_only)"),
            "404": errorResponse("Not one of the caller's keys, or already revoked (key.not_found)"),
          },
        },
      },
      "/jobs/{id}/file": {
        get: {
          operationId: "jobFile",
          summary: `A finished job's file (attachment), through the owner's signed link; kept ${HOURS_KEPT} hours. One Range answers 206.`,
          description: "No session needed: the token names the job and its owner and expires with the file (the job's expiresAt).",
          parameters: [
            jobId,
            { name: "token", in: "query", required: true, schema: { type: "string", maxLength: 2048 } },
            { name: "Range", in: "header", required: false, schema: { type: "string", example: "bytes=0-1023" } },
          ],
          responses: {
            "200": {
              description: "The file. Content-Disposition: attachment with an ASCII filename and a UTF-8 filename*; Accept-Ranges: bytes.",
              content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
            },
            "206": { description: "Part of the file (Content-Range)" },
            "403": errorResponse("A link that was altered, is for another job, or has expired (job.link_invalid)"),
            "410": errorResponse("The file is no longer kept (job.file_gone)"),
            "416": { description: "The range starts past the end of the file (Content-Range: bytes */size, no body)" },
          },
        },
      },
      "/status": {
        get: {
          operationId: "status",
          summary: "Whether each platform's downloads work right now",
          description:
            "Each platform this server serves (YouTube always; yt-dlp's only when the server has yt-dlp), from its outcomes of the last 30 minutes: real resolves, real downloads and the canary's checks. down: three or more failures and no success; degraded: two or more failures, at least a quarter of the outcomes; ok otherwise. A video's own state (private, removed…) counts neither way. Cache-Control: public, max-age=30.",
          responses: {
            "200": { description: "One entry per platform, in the platform table's order", content: { "application/json": { schema: { $ref: "#/components/schemas/Status" } } } },
          },
        },
      },
      "/openapi.json": {
        get: { operationId: "openapi", summary: "This document", responses: { "200": { description: "OpenAPI 3.1 document" } } },
      },
    },
    // any route but the key routes takes either; none needs one (anonymous calls are answered)
    security: [{}, { apiKey: [] }, { session: [] }],
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "An API key (vf_…) made in the dashboard's API tab or with POST /keys. Unknown or revoked: 401 key.invalid; 60 requests a minute per key (429 key.rate_limited)." },
        session: { type: "apiKey", in: "cookie", name: "vidfetch.session_token", description: "The session cookie the site's login sets" },
      },
      schemas: {
        Status: {
          type: "object",
          required: ["platforms"],
          properties: {
            platforms: {
              type: "array",
              items: {
                type: "object",
                required: ["id", "status", "lastSuccessAt", "detail"],
                properties: {
                  id: { type: "string", enum: [...PLATFORM_IDS] },
                  status: { type: "string", enum: ["ok", "degraded", "down"] },
                  lastSuccessAt: { type: ["string", "null"], format: "date-time", description: "when a link of the platform last worked; null when none has since the record began" },
                  detail: { type: ["string", "null"], description: "plain words for a visitor when the status is not ok", example: "YouTube downloads are not working right now; we're on it." },
                },
              },
            },
          },
        },
        KeyRequest: { type: "object", required: ["name"], additionalProperties: false, properties: { name: { type: "string", minLength: 1, maxLength: 60 } } },
        CreatedKey: {
          type: "object",
          required: ["id", "name", "key", "prefix", "createdAt"],
          properties: {
            id: { type: "string" },
            name: { type: "string" },
            key: { type: "string", description: "the key itself: shown in this answer only" },
            prefix: { type: "string", description: "the key's first 11 characters" },
            createdAt: { type: "string", format: "date-time" },
          },
        },
        KeyList: { type: "object", required: ["keys"], properties: { keys: { type: "array", items: { $ref: "#/components/schemas/Key" } } } },
        Key: {
          type: "object",
          required: ["id", "name", "prefix", "createdAt", "lastUsedAt", "requestsThisMonth"],
          properties: {
            id: { type: "string" },
            name: { type: "string" },
            prefix: { type: "string" },
            createdAt: { type: "string", format: "date-time" },
            lastUsedAt: { type: ["string", "null"], format: "date-time" },
            requestsThisMonth: { type: "integer", minimum: 0 },
          },
        },
        Playlist: {
          type: "object",
          required: ["title", "url", "total", "entries"],
          properties: {
            title: { type: "string" },
            url: { type: "string", description: "the playlist's own link: POST /downloads with it gives its ZIP" },
            total: { type: ["integer", "null"], description: "the videos the platform says it holds (may exceed entries)" },
            entries: {
              type: "array",
              maxItems: 200,
              items: {
                type: "object",
                required: ["url", "title", "duration", "thumbnail"],
                properties: { url: { type: "string" }, title: { type: "string" }, duration: { type: ["number", "null"], description: "seconds" }, thumbnail: { type: ["string", "null"] } },
              },
            },
          },
        },
        LinkRequest: {
          type: "object",
          required: ["url"],
          properties: { url: { type: "string", maxLength: 4096, examples: ["https://www.youtube.com/watch?v=dQw4w9WgXcQ"] } },
        },
        DownloadRequest: {
          type: "object",
          required: ["url"],
          description: "`format`, or a `profile` that gives it",
          properties: {
            url: { type: "string", maxLength: 4096 },
            format: { $ref: "#/components/schemas/FormatId" },
            language: { type: "string", maxLength: 35, description: "srt, vtt or transcript in this language (Pro, Ultimate): a track's or a translation's language from POST /resolve" },
            profile: { type: "string", maxLength: 64, description: "a download profile's id (Ultimate): its format and language where the request has none, and its file name" },
            ...mediaOptionRefs(true),
          },
        },
        SubtitlesOption: {
          oneOf: [
            {
              type: "object",
              additionalProperties: false,
              required: ["language", "mode"],
              properties: { language: { type: "string", maxLength: 35, examples: ["de"] }, mode: { type: "string", enum: ["soft", "burn"] } },
            },
            { type: "string", maxLength: 35, description: "the language alone: soft" },
          ],
          description:
            "MP4 and WEBM (issue 33 §6, docs/decisions/069; Pro and Ultimate): the video's subtitles in this language (a track's or a translation's language from POST /resolve's `subtitles` and `subtitleTranslations`) in the file. soft: a selectable track (mov_text in MP4, WebVTT in WEBM) tagged with its language, the picture as it comes; burn: drawn into the picture, which is re-encoded (H.264 in MP4, VP9 in WEBM). A file the platform has ready becomes one ffmpeg makes, and `bytes` is an estimate. A clip's or a SponsorBlock cut's cues move with the picture. Another format, a language the video has no subtitles in, or a burn on a server whose ffmpeg lacks libass is 422 subtitles.unavailable; a caller without Pro or Ultimate 403 plan.required (a language other than the video's own pick also needs the right to choose the subtitles' language)",
        },
        ChaptersOption: {
          type: "string",
          enum: ["split"],
          description:
            "one file per chapter, in a ZIP (issue 33 §2, docs/decisions/070): MP4, WEBM, MP3, M4A and AAC; each file a clip of its chapter (start and end keep the chapters they reach, exact cuts each at its frames), named `01 - <chapter title>.<ext>`, tagged with the chapter's title (the video's as album, its place as track), made one after another into the ZIP as it streams. The link's `bytes` is null and GET /dl/{token} answers application/zip (`Title (720p) - chapters.zip`); its progress tells each chapter in `files`. A video without chapters, or a thumbnail, transcript or subtitles, is 422 chapters.unavailable; with `urls` or a playlist link 400 request.invalid",
        },
        ClipTime: {
          oneOf: [
            { type: "number", minimum: 0, maximum: 360000 },
            { type: "string", maxLength: 16, pattern: "^(\\d{1,3}:)?(\\d{1,3}:)?\\d+(\\.\\d{1,3})?$", examples: ["90", "1:30", "1:02:03"] },
          ],
          description:
            "a clip's start or end (issue 33 §1): seconds, or h:mm:ss / m:ss, to the millisecond. Only the byte ranges (or segments) that cover the clip are fetched. A start at or after the end, or past the video's end, is 422 clip.out_of_range; a thumbnail, transcript or subtitles, or a source of unknown length, 422 clip.unavailable. An empty string is no bound",
        },
        SponsorBlockOption: {
          type: "object",
          additionalProperties: false,
          required: ["categories", "action"],
          properties: {
            categories: { type: "array", minItems: 1, items: { type: "string", enum: ["sponsor", "selfpromo", "interaction", "intro", "outro"] } },
            action: { type: "string", enum: ["cut", "chapters"] },
          },
          description:
            "YouTube videos (issue 33 §4): SponsorBlock's segments in these categories cut out (MP4 and WEBM re-encoded; sizes become estimates) or written as chapters (not with tags: false). Asked for when the link opens, at most 3 s: when SponsorBlock does not answer the file goes out whole, and GET /dl/{token} says so in X-SponsorBlock (applied, none, unavailable). Another link, a thumbnail, transcript or subtitles is 422 sponsorblock.unavailable",
        },
        ExactOption: { type: "boolean", default: false, description: "with start or end: cut at the exact frames (the clip is re-encoded) instead of at the keyframe at or before start (stream copy, the default)" },
        TagsOption: { type: "boolean", default: true, description: "title, artist (the channel), date, the source link and the thumbnail as cover in MP3, M4A and AAC files; title, artist, date and description in MP4 (default true); false leaves the file bare" },
        NormalizeOption: {
          type: "boolean",
          default: false,
          description:
            "MP3, M4A and AAC (issue 33 §5): the audio evened out to -14 LUFS integrated, -1 dBTP true peak (EBU R128, ffmpeg's loudnorm); measured first when the file (or clip) is at most 10 minutes long, adjusted as it streams when longer. An M4A is then AAC re-encoded. Any other format is 422 normalize.unavailable",
        },
        AudioLanguageOption: {
          type: "string",
          maxLength: 35,
          description:
            "MP4, WEBM, MP3, M4A and AAC (issue 33 §5): the audio track in this language (a `language` of POST /resolve's `audioTracks`) instead of the original; the file's audio track carries the language (MP4, WEBM, AAC). A language the video does not have is 422 audio.language_unavailable",
        },
        ProfileRequest: {
          type: "object",
          required: ["name", "format"],
          additionalProperties: false,
          properties: {
            name: { type: "string", minLength: 1, maxLength: 60 },
            format: { $ref: "#/components/schemas/FormatId" },
            language: { type: ["string", "null"], maxLength: 35 },
            filenameTemplate: { type: ["string", "null"], maxLength: 200, description: "fields {title} {channel} {id} {date} {format} {platform}" },
          },
        },
        Profile: {
          type: "object",
          required: ["id", "name", "format", "language", "filenameTemplate", "createdAt"],
          properties: {
            id: { type: "string" },
            name: { type: "string" },
            format: { $ref: "#/components/schemas/FormatId" },
            language: { type: ["string", "null"] },
            filenameTemplate: { type: ["string", "null"] },
            createdAt: { type: "string", format: "date-time" },
          },
        },
        BulkDownloadRequest: {
          type: "object",
          required: ["urls"],
          description: "`format`, or `profile`, or both",
          additionalProperties: false,
          properties: {
            urls: { type: "array", minItems: 1, items: { type: "string", maxLength: 4096 }, description: "the links, at most the plan's links per bulk download" },
            format: { $ref: "#/components/schemas/FormatId" },
            name: { type: "string", maxLength: 200, description: "the archive's name (unsafe characters become spaces, cut to 120 characters); default `VidFetch bulk <date>` (`Bulk <date>` with an Ultimate API key: the white label)" },
            profile: { type: "string", maxLength: 64, description: "a download profile's id (Ultimate): the format when there is none, and every file's subtitle language and file name" },
            ...mediaOptionRefs(false),
          },
        },
        FormatId: { type: "string", enum: FORMAT_IDS },
        Download: {
          type: "object",
          required: ["id", "downloadUrl", "filename", "expiresAt", "bytes"],
          properties: {
            id: { type: "string" },
            downloadUrl: { type: "string", format: "uri" },
            filename: { type: "string" },
            expiresAt: { type: "string", format: "date-time" },
            bytes: { type: ["integer", "null"], description: "the file's size, exact or estimated (a clip's); null when unknown ahead (a ZIP: several links, or a split by chapter)" },
          },
        },
        VideoDetails: {
          type: "object",
          properties: {
            id: { type: "string" },
            title: { type: "string" },
            description: { type: "string", maxLength: 160 },
            thumbnail: { type: "string" },
            channelTitle: { type: "string" },
            channelId: { type: "string" },
            channelThumbnail: { type: "string" },
            isMonetized: { type: "boolean" },
            subscriberCount: { type: "string" },
            publishedAt: { type: "string" },
            duration: { type: "string" },
            viewCount: { type: "string" },
            likeCount: { type: "string" },
            tags: { type: "array", items: { type: "string" } },
            downloadUrl: { type: "string" },
            platform: { type: "string", enum: [...PLATFORM_IDS, "generic"] },
            durationSeconds: { type: "number" },
            embedUrl: { type: ["string", "null"] },
          },
        },
        FormatOption: {
          type: "object",
          required: ["id", "label", "quality", "format", "size", "icon", "available", "premium", "bytes"],
          properties: {
            id: { $ref: "#/components/schemas/FormatId" },
            label: { type: "string" },
            quality: { type: "string" },
            format: { type: "string" },
            size: { type: "string" },
            icon: { type: "string", enum: ["video", "audio", "image", "text"] },
            available: { type: "boolean" },
            premium: { type: "boolean" },
            bytes: { type: ["integer", "null"] },
            estimated: { type: "boolean" },
            note: { type: "string" },
            allowed: { type: "boolean", description: "whether the caller's plan may download this format" },
          },
        },
        Progress: {
          type: "object",
          required: ["bytes", "total", "state"],
          properties: {
            bytes: { type: "integer" },
            total: { type: ["integer", "null"] },
            state: { type: "string", enum: ["queued", "streaming", "done", "failed", "aborted"] },
            files: {
              type: "object",
              description: "a ZIP's files (several links, a playlist): sent whenever one starts or ends",
              required: ["total", "done", "failed", "items"],
              properties: {
                total: { type: "integer" },
                done: { type: "integer" },
                failed: { type: "integer" },
                items: {
                  type: "array",
                  items: {
                    type: "object",
                    required: ["status", "title"],
                    properties: {
                      status: { type: "string", enum: ["pending", "running", "done", "failed"] },
                      title: { type: ["string", "null"] },
                      error: { type: "string", description: "on a failed file: the manifest's error" },
                    },
                  },
                },
              },
            },
            error: {
              type: "object",
              description: "on a failed event, when the engine knows why: the error's code and sentence (as the API's errors)",
              required: ["code", "message"],
              properties: { code: { type: "string" }, message: { type: "string" } },
            },
          },
        },
        JobRequest: {
          oneOf: [
            {
              type: "object",
              required: ["url"],
              additionalProperties: false,
              properties: {
                url: { type: "string", maxLength: 4096, description: "a video link, or a playlist link (Ultimate: its videos in one ZIP, listed when the job runs)" },
                format: { $ref: "#/components/schemas/FormatId" },
                runAt: { $ref: "#/components/schemas/RunAt" },
                profile: { type: "string", maxLength: 64, description: "a download profile's id: the format when there is none, and the language and file name" },
                ...mediaOptionRefs(true),
              },
            },
            {
              type: "object",
              required: ["urls"],
              additionalProperties: false,
              properties: {
                urls: { type: "array", minItems: 1, items: { type: "string", maxLength: 4096 }, description: "several links in one ZIP (Ultimate), at most the plan's links per bulk download" },
                format: { $ref: "#/components/schemas/FormatId" },
                runAt: { $ref: "#/components/schemas/RunAt" },
                name: { type: "string", maxLength: 200, description: "the ZIP's name" },
                profile: { type: "string", maxLength: 64, description: "a download profile's id: the format when there is none, and every file's subtitle language and file name" },
                ...mediaOptionRefs(false),
              },
            },
          ],
        },
        JobReschedule: { type: "object", required: ["runAt"], properties: { runAt: { $ref: "#/components/schemas/RunAt" } } },
        RunAt: {
          type: "string",
          format: "date-time",
          maxLength: 64,
          description: `When to run: a date-time with an offset, from now up to ${DAYS_AHEAD} days ahead; answered in UTC`,
          examples: ["2026-11-27T06:30:00+01:00"],
        },
        JobStatus: {
          type: "string",
          enum: JOB_STATUSES,
          description: "scheduled: waiting for runAt; queued: runAt has passed and the queue takes it within seconds; running; done; failed; canceled",
        },
        JobCreated: {
          type: "object",
          required: ["id", "status", "runAt"],
          properties: { id: { type: "string" }, status: { $ref: "#/components/schemas/JobStatus" }, runAt: { type: "string", format: "date-time" } },
        },
        JobItem: {
          type: "object",
          required: ["url", "title", "status", "bytes", "error"],
          properties: {
            url: { type: "string" },
            title: { type: ["string", "null"] },
            status: { type: "string", enum: ["pending", "done", "failed"] },
            bytes: { type: ["integer", "null"] },
            error: { type: ["string", "null"] },
          },
        },
        Job: {
          type: "object",
          required: ["id", "kind", "name", "status", "url", "format", "runAt", "createdAt", "progress", "items", "filename", "bytes", "downloadUrl", "expiresAt", "error"],
          properties: {
            id: { type: "string" },
            kind: { type: "string", enum: JOB_KINDS, description: "scheduled: one file; bulk: a ZIP of several links; playlist: a ZIP of a playlist's videos" },
            name: { type: ["string", "null"], description: "the ZIP's name given with urls, or the playlist's title once the job ran" },
            status: { $ref: "#/components/schemas/JobStatus" },
            url: { type: "string" },
            format: { $ref: "#/components/schemas/FormatId" },
            runAt: { type: "string", format: "date-time" },
            createdAt: { type: "string", format: "date-time" },
            progress: {
              type: "object",
              required: ["bytes", "total", "percent"],
              properties: {
                bytes: { type: "integer" },
                total: { type: ["integer", "null"] },
                percent: { type: ["integer", "null"], minimum: 0, maximum: 100 },
              },
            },
            items: { type: "array", items: { $ref: "#/components/schemas/JobItem" } },
            filename: { type: ["string", "null"] },
            bytes: { type: ["integer", "null"] },
            downloadUrl: { type: ["string", "null"], format: "uri", description: "the owner's signed link to the file while it is kept" },
            expiresAt: { type: ["string", "null"], format: "date-time", description: `when the file and its link go (${HOURS_KEPT} hours after the job finished)` },
            error: { type: ["string", "null"], description: "why the job failed, in the words the dashboard shows" },
          },
        },
        JobList: { type: "object", required: ["jobs"], properties: { jobs: { type: "array", items: { $ref: "#/components/schemas/Job" } } } },
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: { code: { type: "string", enum: API_ERROR_CODES }, message: { type: "string" } },
            },
          },
        },
      },
    },
  } as const;
}
