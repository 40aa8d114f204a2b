import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi.ts";

/**
 * `GET /api/v1/openapi.json` is a valid OpenAPI 3.1 document by the specification's own JSON
 * schema (a standard validator, not our reading of it), with every $ref resolving.
 */
describe("the OpenAPI document", () => {
  it("validates against the OpenAPI 3.1 schema", async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(openApiDocument("https://vidfetch.example"))));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("fails a document that is not valid (the validator is not a formality)", async () => {
    const broken = JSON.parse(JSON.stringify(openApiDocument("https://vidfetch.example"))) as { paths: Record<string, Record<string, { responses?: unknown }>> };
    broken.paths["/resolve"]!.post!.responses = "none";
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it("describes the API key routes and how a key is sent", () => {
    const doc = openApiDocument("https://vidfetch.example");
    expect(Object.keys(doc.paths["/keys"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/keys/{id}"])).toEqual(["delete"]);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
  });
});
