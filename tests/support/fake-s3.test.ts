import { Readable } from "node:stream";
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startFakeS3, type FakeS3 } from "./fake-s3.ts";

/** The fake answers the AWS SDK as S3 does, for what job storage's tests rely on. */
describe("fake S3", () => {
  let fake: FakeS3;
  let client: S3Client;
  beforeAll(async () => {
    fake = await startFakeS3({ bucket: "fake-test" });
    // the SDK's default checksums: a streamed body arrives aws-chunked with a trailing checksum
    client = new S3Client({ region: "us-east-1", endpoint: fake.endpoint, forcePathStyle: true, credentials: { accessKeyId: "k", secretAccessKey: "s" } });
  });
  afterAll(() => fake.close());

  test("a streamed, aws-chunked upload is stored as its plain bytes", async () => {
    const body = Buffer.alloc(200_000, 7);
    await client.send(new PutObjectCommand({ Bucket: "fake-test", Key: "a/b", Body: Readable.from([body.subarray(0, 70_000), body.subarray(70_000)]), ContentLength: body.length, ContentType: "text/plain", Metadata: { name: "x" } }));
    expect(fake.objects.get("a/b")!.body.equals(body)).toBe(true);
    const head = await client.send(new HeadObjectCommand({ Bucket: "fake-test", Key: "a/b" }));
    expect(head).toMatchObject({ ContentLength: 200_000, ContentType: "text/plain", Metadata: { name: "x" } });
    const part = await client.send(new GetObjectCommand({ Bucket: "fake-test", Key: "a/b", Range: "bytes=-10" }));
    expect(part.ContentRange).toBe("bytes 199990-199999/200000");
    expect((await part.Body!.transformToByteArray()).length).toBe(10);
  });

  test("another bucket and a missing key are S3's errors", async () => {
    await expect(client.send(new HeadObjectCommand({ Bucket: "other", Key: "a" }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
    await expect(client.send(new GetObjectCommand({ Bucket: "fake-test", Key: "missing" }))).rejects.toMatchObject({ name: "NoSuchKey" });
  });
});
