/**
 * The subscribe request's fields from a JSON or form body; null when the body cannot be read
 * (malformed JSON, wrong content type), which the route answers like an invalid address.
 */
export async function readNewsletterBody(request: Request): Promise<Record<string, unknown> | null> {
  const type = request.headers.get("content-type") ?? "";
  try {
    if (type.includes("application/json")) {
      const json: unknown = await request.json();
      return json && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
    }
    if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
      const form = await request.formData();
      const out: Record<string, unknown> = {};
      for (const [key, value] of form) if (typeof value === "string") out[key] = value;
      return out;
    }
  } catch {
    return null;
  }
  return null;
}
