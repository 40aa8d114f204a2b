import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small S3-compatible server for tests, path-style (`/<bucket>/<key>`), in memory: PutObject,
 * GetObject (with Range), HeadObject, DeleteObject, ListObjectsV2 (paged), the multipart calls
 * (Create, UploadPart, Complete, Abort, ListMultipartUploads). Signatures are not checked, but a
 * request without an Authorization header is refused like S3 does. Parts but the last must be
 * at least 5 MiB, as in S3. `failing` makes chosen operations answer 500 until cleared.
 */

export interface FakeObject {
  body: Buffer;
  contentType: string;
  metadata: Record<string, string>;
  lastModified: Date;
}

interface Upload {
  key: string;
  contentType: string;
  metadata: Record<string, string>;
  initiated: Date;
  parts: Map<number, { body: Buffer; etag: string }>;
}

export type FakeS3Operation =
  | "PutObject"
  | "GetObject"
  | "HeadObject"
  | "DeleteObject"
  | "ListObjectsV2"
  | "CreateMultipartUpload"
  | "UploadPart"
  | "CompleteMultipartUpload"
  | "AbortMultipartUpload"
  | "ListMultipartUploads";

export interface FakeS3 {
  endpoint: string;
  bucket: string;
  objects: Map<string, FakeObject>;
  uploads: Map<string, Upload>;
  /** operations that answer 500 InternalError while listed */
  failing: Set<FakeS3Operation>;
  /** every request's operation, in order */
  calls: FakeS3Operation[];
  /** most keys per ListObjectsV2 page (S3: 1000) */
  pageSize: number;
  close(): Promise<void>;
}

const MIN_PART = 5 * 1024 * 1024;

const xmlEscape = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function etagOf(body: Buffer): string {
  return `"${createHash("md5").update(body).digest("hex")}"`;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const encoding = String(req.headers["content-encoding"] ?? "");
  const sha = String(req.headers["x-amz-content-sha256"] ?? "");
  return encoding.includes("aws-chunked") || sha.startsWith("STREAMING-") ? decodeAwsChunked(raw) : raw;
}

/** The body of an `aws-chunked` upload: `<hex size>[;ext]\r\n<data>\r\n` … `0\r\n<trailers>\r\n`. */
function decodeAwsChunked(raw: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = raw.indexOf("\r\n", at);
    if (eol < 0) break;
    const size = parseInt(raw.subarray(at, eol).toString("latin1").split(";")[0]!, 16);
    if (!size) break;
    out.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

function metadataOf(req: IncomingMessage): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith("x-amz-meta-") && typeof value === "string") meta[name.slice("x-amz-meta-".length)] = value;
  }
  return meta;
}

function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error>`;
  res.writeHead(status, { "content-type": "application/xml", "content-length": Buffer.byteLength(body) });
  res.end(res.req.method === "HEAD" ? undefined : body);
}

function sendXml(res: ServerResponse, xml: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>${xml}`;
  res.writeHead(200, { "content-type": "application/xml", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

function objectHeaders(o: FakeObject): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": o.contentType,
    etag: etagOf(o.body),
    "last-modified": o.lastModified.toUTCString(),
    "accept-ranges": "bytes",
  };
  for (const [k, v] of Object.entries(o.metadata)) headers[`x-amz-meta-${k}`] = v;
  return headers;
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` against a size; null when unsatisfiable. */
function parseRange(header: string, size: number): { start: number; end: number } | null | "whole" {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return "whole";
  if (m[1] === "") {
    const n = Number(m[2]);
    return n === 0 || size === 0 ? null : { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return null;
  return { start, end };
}

function operationOf(method: string, key: string, q: URLSearchParams): FakeS3Operation | null {
  if (!key) {
    if (method === "GET" && q.has("uploads")) return "ListMultipartUploads";
    if (method === "GET" && q.get("list-type") === "2") return "ListObjectsV2";
    return null;
  }
  if (method === "POST" && q.has("uploads")) return "CreateMultipartUpload";
  if (method === "PUT" && q.has("uploadId") && q.has("partNumber")) return "UploadPart";
  if (method === "POST" && q.has("uploadId")) return "CompleteMultipartUpload";
  if (method === "DELETE" && q.has("uploadId")) return "AbortMultipartUpload";
  if (method === "PUT") return "PutObject";
  if (method === "GET") return "GetObject";
  if (method === "HEAD") return "HeadObject";
  if (method === "DELETE") return "DeleteObject";
  return null;
}

export async function startFakeS3(opts: { bucket?: string } = {}): Promise<FakeS3> {
  const bucket = opts.bucket ?? "vidfetch-test";
  const objects = new Map<string, FakeObject>();
  const uploads = new Map<string, Upload>();
  const failing = new Set<FakeS3Operation>();
  const calls: FakeS3Operation[] = [];
  const state = { pageSize: 1000 };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    const method = req.method ?? "GET";
    const [, first = "", ...rest] = url.pathname.split("/");
    const key = rest.map((p) => decodeURIComponent(p)).join("/");
    const q = url.searchParams;
    if (!req.headers.authorization) return sendError(res, 403, "AccessDenied", "Access Denied: the request is not signed");
    if (decodeURIComponent(first) !== bucket) return sendError(res, 404, "NoSuchBucket", "The specified bucket does not exist");
    const op = operationOf(method, key, q);
    if (!op) return sendError(res, 501, "NotImplemented", `${method} ${url.pathname}${url.search} is not implemented by the fake`);
    calls.push(op);
    const body = await readBody(req);
    if (failing.has(op)) return sendError(res, 500, "InternalError", "We encountered an internal error. Please try again.");

    switch (op) {
      case "PutObject": {
        objects.set(key, { body, contentType: String(req.headers["content-type"] ?? "binary/octet-stream"), metadata: metadataOf(req), lastModified: new Date() });
        res.writeHead(200, { etag: etagOf(body) }).end();
        return;
      }
      case "GetObject":
      case "HeadObject": {
        const o = objects.get(key);
        if (!o) return sendError(res, 404, "NoSuchKey", "The specified key does not exist.");
        const headers = objectHeaders(o);
        const range = req.headers.range ? parseRange(String(req.headers.range), o.body.length) : "whole";
        if (range === null) {
          res.setHeader("content-range", `bytes */${o.body.length}`);
          return sendError(res, 416, "InvalidRange", "The requested range is not satisfiable");
        }
        if (range === "whole") {
          res.writeHead(200, { ...headers, "content-length": o.body.length });
          res.end(op === "HeadObject" ? undefined : o.body);
          return;
        }
        const slice = o.body.subarray(range.start, range.end + 1);
        res.writeHead(206, { ...headers, "content-length": slice.length, "content-range": `bytes ${range.start}-${range.end}/${o.body.length}` });
        res.end(op === "HeadObject" ? undefined : slice);
        return;
      }
      case "DeleteObject": {
        objects.delete(key);
        res.writeHead(204).end();
        return;
      }
      case "ListObjectsV2": {
        const prefix = q.get("prefix") ?? "";
        const after = q.get("continuation-token") ?? q.get("start-after") ?? "";
        const max = Math.min(Number(q.get("max-keys") ?? 1000), state.pageSize);
        const keys = [...objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
        const page = keys.slice(0, max);
        const truncated = keys.length > page.length;
        const contents = page
          .map((k) => {
            const o = objects.get(k)!;
            return `<Contents><Key>${xmlEscape(k)}</Key><LastModified>${o.lastModified.toISOString()}</LastModified><ETag>${xmlEscape(etagOf(o.body))}</ETag><Size>${o.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
          })
          .join("");
        const next = truncated ? `<NextContinuationToken>${xmlEscape(page.at(-1)!)}</NextContinuationToken>` : "";
        return sendXml(
          res,
          `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucket}</Name><Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${next}${contents}</ListBucketResult>`,
        );
      }
      case "CreateMultipartUpload": {
        const id = randomUUID();
        uploads.set(id, { key, contentType: String(req.headers["content-type"] ?? "binary/octet-stream"), metadata: metadataOf(req), initiated: new Date(), parts: new Map() });
        return sendXml(res, `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
      }
      case "UploadPart": {
        const upload = uploads.get(q.get("uploadId")!);
        if (!upload || upload.key !== key) return sendError(res, 404, "NoSuchUpload", "The specified upload does not exist.");
        const n = Number(q.get("partNumber"));
        if (!Number.isInteger(n) || n < 1 || n > 10_000) return sendError(res, 400, "InvalidArgument", "Part number must be an integer between 1 and 10000");
        const etag = etagOf(body);
        upload.parts.set(n, { body, etag });
        res.writeHead(200, { etag }).end();
        return;
      }
      case "CompleteMultipartUpload": {
        const id = q.get("uploadId")!;
        const upload = uploads.get(id);
        if (!upload || upload.key !== key) return sendError(res, 404, "NoSuchUpload", "The specified upload does not exist.");
        const listed = [...body.toString("utf8").matchAll(/<Part>[\s\S]*?<\/Part>/g)].map(([part]) => ({
          n: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(part)?.[1]),
          etag: /<ETag>([^<]*)<\/ETag>/.exec(part)?.[1]?.replace(/&quot;|&#34;/g, '"'),
        }));
        if (listed.length === 0) return sendError(res, 400, "MalformedXML", "The XML you provided was not well-formed");
        const pieces: Buffer[] = [];
        for (const [i, { n, etag }] of listed.entries()) {
          const part = upload.parts.get(n);
          if (!part || part.etag !== etag) return sendError(res, 400, "InvalidPart", `Part ${n} was not uploaded or its ETag differs`);
          if (i > 0 && n <= listed[i - 1]!.n) return sendError(res, 400, "InvalidPartOrder", "The list of parts was not in ascending order");
          if (i < listed.length - 1 && part.body.length < MIN_PART) return sendError(res, 400, "EntityTooSmall", "Your proposed upload is smaller than the minimum allowed object size");
          pieces.push(part.body);
        }
        const whole = Buffer.concat(pieces);
        objects.set(key, { body: whole, contentType: upload.contentType, metadata: upload.metadata, lastModified: new Date() });
        uploads.delete(id);
        return sendXml(res, `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${xmlEscape(key)}</Key><ETag>${xmlEscape(etagOf(whole))}</ETag></CompleteMultipartUploadResult>`);
      }
      case "AbortMultipartUpload": {
        if (!uploads.delete(q.get("uploadId")!)) return sendError(res, 404, "NoSuchUpload", "The specified upload does not exist.");
        res.writeHead(204).end();
        return;
      }
      case "ListMultipartUploads": {
        const prefix = q.get("prefix") ?? "";
        const rows = [...uploads.entries()]
          .filter(([, u]) => u.key.startsWith(prefix))
          .map(([id, u]) => `<Upload><Key>${xmlEscape(u.key)}</Key><UploadId>${id}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated></Upload>`)
          .join("");
        return sendXml(res, `<ListMultipartUploadsResult><Bucket>${bucket}</Bucket><Prefix>${xmlEscape(prefix)}</Prefix><IsTruncated>false</IsTruncated>${rows}</ListMultipartUploadsResult>`);
      }
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendError(res, 500, "InternalError", String(err));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    objects,
    uploads,
    failing,
    calls,
    get pageSize() {
      return state.pageSize;
    },
    set pageSize(n: number) {
      state.pageSize = n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
