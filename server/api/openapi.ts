import { PLATFORM_IDS } from "#common/links.ts";
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

export function openApiDocument(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "VidFetch API",
      version: "1.0.0",
      description:
        "Resolve a video link, list its formats, and stream the chosen file through a signed, expiring link. Nothing is stored on the server. Calls are made as the signed-in account of the session cookie (vidfetch.session_token) with the plan it holds; without it, anonymously. Premium formats need the Pro or Ultimate plan (403 otherwise).",
    },
    servers: [{ url: `${serverUrl.replace(/\/+$/, "")}/api/v1` }],
    paths: {
      "/resolve": {
        post: {
          operationId: "resolve",
          summary: "Video details and the formats available for a link",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/LinkRequest" } } },
          },
          responses: {
            "200": {
              description: "Details and formats",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["video", "formats"],
                    properties: {
                      video: { $ref: "#/components/schemas/VideoDetails" },
                      formats: { type: "array", items: { $ref: "#/components/schemas/FormatOption" } },
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
            "With `urls` (bulk downloads, a right of the plan table), the link streams application/zip as it is built: each link's file in order, then manifest.csv (position, title, source, format, file_name, bytes, sha256, status, error); a link that fails is a failed row and the others still arrive.",
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: { oneOf: [{ $ref: "#/components/schemas/DownloadRequest" }, { $ref: "#/components/schemas/BulkDownloadRequest" }] } },
            },
          },
          responses: {
            "200": { description: "The download link", content: { "application/json": { schema: { $ref: "#/components/schemas/Download" } } } },
            "400": errorResponse("Invalid link, unknown format id, or more links than the plan allows in one ZIP (bulk.too_many_links)"),
            "403": errorResponse("Premium format for a caller without premium, or a bulk download for a plan without it (plan.required)"),
            "422": errorResponse("Format not available for this video"),
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
          ],
          responses: {
            "302": { description: "Location: the signed download link", headers: { Location: { schema: { type: "string", format: "uri" } } } },
            "400": errorResponse("Invalid link or unknown format id"),
            "403": errorResponse("Premium format"),
            "422": errorResponse("Format not available"),
            "429": errorResponse("Fair-use limit reached"),
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
              description: "The file (application/zip for a bulk link). Content-Disposition: attachment with an ASCII filename and a UTF-8 filename*.",
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
      "/openapi.json": {
        get: { operationId: "openapi", summary: "This document", responses: { "200": { description: "OpenAPI 3.1 document" } } },
      },
    },
    components: {
      schemas: {
        LinkRequest: {
          type: "object",
          required: ["url"],
          properties: { url: { type: "string", maxLength: 4096, examples: ["https://www.youtube.com/watch?v=dQw4w9WgXcQ"] } },
        },
        DownloadRequest: {
          type: "object",
          required: ["url", "format"],
          properties: { url: { type: "string", maxLength: 4096 }, format: { $ref: "#/components/schemas/FormatId" } },
        },
        BulkDownloadRequest: {
          type: "object",
          required: ["urls", "format"],
          additionalProperties: false,
          properties: {
            urls: { type: "array", minItems: 1, items: { type: "string", maxLength: 4096 }, description: "the links, at most the plan's links per bulk download" },
            format: { $ref: "#/components/schemas/FormatId" },
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
            bytes: { type: ["integer", "null"] },
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
          },
        },
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
