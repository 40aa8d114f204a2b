import type { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from "@aws-sdk/client-s3";
import type { ByteRange, OpenedFile, StorageBackend } from "./job-storage.ts";

/**
 * Job output in an S3-compatible bucket, under the prefix `files/`. A stream is uploaded in parts
 * of PART_BYTES (one part in memory at a time, so memory does not grow with the file); a file that
 * fits in one part is a single PutObject. A failed upload is aborted, so no object appears. The
 * content type is the object's, the file name and creation time are object metadata.
 */

export interface S3Options {
  /** unset: AWS S3; set: path-style requests to this endpoint (MinIO, R2, a test fake) */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const PREFIX = "files/";
/** S3 takes parts of at least 5 MiB (but the last); 8 MiB keeps the request count low */
const PART_BYTES = 8 * 1024 * 1024;

function statusOf(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

function nameOf(err: unknown): string | undefined {
  return (err as { name?: string })?.name;
}

export function createS3Backend(opts: S3Options): StorageBackend {
  const client = new S3Client({
    region: opts.region,
    ...(opts.endpoint ? { endpoint: opts.endpoint, forcePathStyle: true } : {}),
    credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
    // checksums only where S3 requires them: several S3-compatible stores refuse the newer
    // trailing-checksum uploads
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = opts.bucket;

  /** Every object under the prefix (key, size, time), page by page. */
  async function* listAll(): AsyncGenerator<{ Key: string; Size: number; LastModified: Date }> {
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: PREFIX, ContinuationToken }));
      for (const o of page.Contents ?? []) {
        if (o.Key) yield { Key: o.Key, Size: o.Size ?? 0, LastModified: o.LastModified ?? new Date(0) };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  return {
    async write(key, chunks, meta) {
      const Key = PREFIX + key;
      const Metadata = { filename: encodeURIComponent(meta.filename), created: meta.created.toISOString() };
      let uploadId: string | undefined;
      const parts: CompletedPart[] = [];
      let pending: Buffer[] = [];
      let pendingBytes = 0;

      async function sendPart(body: Buffer): Promise<void> {
        uploadId ??= (await client.send(new CreateMultipartUploadCommand({ Bucket, Key, ContentType: meta.contentType, Metadata }))).UploadId;
        if (!uploadId) throw new Error("job storage: the bucket gave no upload id");
        const PartNumber = parts.length + 1;
        const { ETag } = await client.send(new UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body: body, ContentLength: body.length }));
        parts.push({ PartNumber, ETag });
      }

      try {
        for await (const chunk of chunks) {
          pending.push(chunk);
          pendingBytes += chunk.length;
          if (pendingBytes >= PART_BYTES) {
            const all = Buffer.concat(pending, pendingBytes);
            pending = [];
            pendingBytes = 0;
            await sendPart(all.subarray(0, PART_BYTES));
            if (all.length > PART_BYTES) {
              pending.push(all.subarray(PART_BYTES));
              pendingBytes = all.length - PART_BYTES;
            }
          }
        }
        const rest = Buffer.concat(pending, pendingBytes);
        if (!uploadId) {
          await client.send(new PutObjectCommand({ Bucket, Key, Body: rest, ContentLength: rest.length, ContentType: meta.contentType, Metadata }));
          return;
        }
        if (rest.length > 0) await sendPart(rest);
        await client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
      } catch (err) {
        if (uploadId) {
          await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId })).catch(() => {});
        }
        throw err;
      }
    },

    async open(key, range?: ByteRange): Promise<OpenedFile | null> {
      let res;
      try {
        res = await client.send(new GetObjectCommand({ Bucket, Key: PREFIX + key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
      } catch (err) {
        if (nameOf(err) === "NoSuchKey" || statusOf(err) === 404) return null;
        if (nameOf(err) === "InvalidRange" || statusOf(err) === 416) {
          throw new RangeError(`job storage: range ${range?.start}-${range?.end} starts past the end`, { cause: err });
        }
        throw err;
      }
      const bytes = res.ContentLength ?? 0;
      const total = Number(/\/(\d+)$/.exec(res.ContentRange ?? "")?.[1] ?? bytes);
      let filename = key.split("/").pop()!;
      try {
        if (res.Metadata?.filename) filename = decodeURIComponent(res.Metadata.filename);
      } catch {
        // a name not written by us: keep the key's last part
      }
      const created = res.Metadata?.created ? new Date(res.Metadata.created) : (res.LastModified ?? new Date(0));
      return {
        stream: res.Body as Readable,
        bytes,
        totalBytes: total,
        contentType: res.ContentType ?? "application/octet-stream",
        filename,
        created,
      };
    },

    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: PREFIX + key }));
    },

    async removeOlderThan(cutoff) {
      let count = 0;
      const old: string[] = [];
      for await (const o of listAll()) if (o.LastModified < cutoff) old.push(o.Key);
      for (const Key of old) {
        await client.send(new DeleteObjectCommand({ Bucket, Key }));
        count++;
      }
      // uploads a crash left unfinished hold parts the bucket keeps (and bills) until aborted
      let KeyMarker: string | undefined;
      let UploadIdMarker: string | undefined;
      do {
        const page = await client.send(new ListMultipartUploadsCommand({ Bucket, Prefix: PREFIX, KeyMarker, UploadIdMarker }));
        for (const u of page.Uploads ?? []) {
          if (u.Key && u.UploadId && u.Initiated && u.Initiated < cutoff) {
            await client.send(new AbortMultipartUploadCommand({ Bucket, Key: u.Key, UploadId: u.UploadId })).catch(() => {});
          }
        }
        KeyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
        UploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
      } while (KeyMarker);
      return count;
    },

    async scanBytes() {
      let total = 0;
      for await (const o of listAll()) total += o.Size;
      return total;
    },
  };
}
