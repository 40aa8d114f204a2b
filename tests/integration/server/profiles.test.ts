/**
 * Issue 31 §2 through /api/v1 as the host mounts it: an Ultimate user saves a profile (format,
 * language, file-name template), downloads with `profile` and gets the template's name in the
 * answer and in Content-Disposition, manages profiles by session or by API key; another account's
 * profile is a 404; other plans are refused; bad templates, languages and formats are refused.
 */
import { afterAll, describe, expect, it } from "vitest";
import { testDatabases } from "#tests/support/test-db.ts";
import { ALL_FORMATS_URL, closePlatform, planFixtureFor, type PlanFixture } from "../plans/plan-fixture.ts";

afterAll(() => closePlatform());

interface Profile {
  id: string;
  name: string;
  format: string;
  language: string | null;
  filenameTemplate: string | null;
}

describe.each(testDatabases)("download profiles on $name", (variant) => {
  let fx: PlanFixture;
  const { skip } = planFixtureFor(variant, (started) => ({ fx } = started));

  const profiles = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    fetch(`${fx.origin}/api/v1/profiles${path}`, { method, headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });

  it.skipIf(skip)("a profile's format, language and file name reach the download, by session or by key", async () => {
    const user = await fx.signUp("Archivist", "ultimate");
    const made = await profiles("POST", "/", { cookie: user.cookie }, { name: " Archive ", format: "mp4-360", filenameTemplate: "{channel} - {title} [{id}] {date}" });
    expect(made.status).toBe(201);
    const profile = (await made.json()) as Profile;
    expect(profile).toMatchObject({ name: "Archive", format: "mp4-360", language: null, filenameTemplate: "{channel} - {title} [{id}] {date}" });

    const res = await fx.post("/downloads", { url: ALL_FORMATS_URL, profile: profile.id }, user.cookie);
    expect(res.status).toBe(200);
    const created = (await res.json()) as { downloadUrl: string; filename: string };
    expect(created.filename).toBe("VidFetch Samples - Sample clip in every quality [vidfetchAll] 2026-06-03.mp4");
    const file = await fetch(created.downloadUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toContain('filename="VidFetch Samples - Sample clip in every quality [vidfetchAll] 2026-06-03.mp4"');
    await file.arrayBuffer();

    // a format in the body wins over the profile's; the template still names the file
    const audio = (await (await fx.post("/downloads", { url: ALL_FORMATS_URL, profile: profile.id, format: "mp3-128" }, user.cookie)).json()) as { filename: string };
    expect(audio.filename).toMatch(/\[vidfetchAll\] 2026-06-03\.mp3$/);

    // the same by API key: list, then download with the profile
    const { key } = (await (await fetch(`${fx.origin}/api/v1/keys`, { method: "POST", headers: { cookie: user.cookie, "content-type": "application/json" }, body: JSON.stringify({ name: "ci" }) })).json()) as { key: string };
    const listed = (await (await profiles("GET", "/", { authorization: `Bearer ${key}` })).json()) as { profiles: Profile[] };
    expect(listed.profiles.map((p) => p.id)).toEqual([profile.id]);
    const byKey = await fetch(`${fx.origin}/api/v1/downloads`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ url: ALL_FORMATS_URL, profile: profile.id }) });
    expect(((await byKey.json()) as { filename: string }).filename).toContain("[vidfetchAll]");

    // another account's profile does not exist for them; its owner edits and deletes it
    const other = await fx.signUp("OtherArchivist", "ultimate");
    const foreign = await fx.post("/downloads", { url: ALL_FORMATS_URL, profile: profile.id }, other.cookie);
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe("profile.not_found");
    expect((await profiles("DELETE", `/${profile.id}`, { cookie: other.cookie })).status).toBe(404);
    const edited = await profiles("PATCH", `/${profile.id}`, { cookie: user.cookie }, { name: "Archive", format: "mp4-720", filenameTemplate: null });
    expect(((await edited.json()) as Profile).format).toBe("mp4-720");
    expect((await profiles("DELETE", `/${profile.id}`, { cookie: user.cookie })).status).toBe(204);
    expect(((await (await profiles("GET", "/", { cookie: user.cookie })).json()) as { profiles: unknown[] }).profiles).toEqual([]);
  });

  it.skipIf(skip)("a subtitle profile downloads its language; bad templates, languages and formats are refused with a reason", async () => {
    const user = await fx.signUp("SubtitleProfile", "ultimate");
    const { id } = (await (await profiles("POST", "/", { cookie: user.cookie }, { name: "German subs", format: "srt", language: "de", filenameTemplate: "{title}" })).json()) as Profile;
    const created = (await (await fx.post("/downloads", { url: "https://www.youtube.com/watch?v=vidfetchSub", profile: id }, user.cookie)).json()) as { filename: string };
    expect(created.filename).toBe("Sample clip with subtitles in three languages.de.srt");

    const refusals: Array<[object, string]> = [
      [{ name: "x", format: "mp4-360", filenameTemplate: "{title} {uploader}" }, "{uploader} is not a field."],
      [{ name: "x", format: "mp4-360", language: "de" }, "A language can only be chosen for subtitles and transcripts."],
      [{ name: "x", format: "srt", language: "../de" }, "That is not a language code (for example de, pt-BR)."],
      [{ name: "", format: "mp4-360" }, "Give the profile a name of 1 to 60 characters and one of the formats on offer."],
      [{ name: "x", format: "mp4-9999" }, "Give the profile a name of 1 to 60 characters and one of the formats on offer."],
    ];
    for (const [body, message] of refusals) {
      const res = await profiles("POST", "/", { cookie: user.cookie }, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain(message);
    }
  });

  it.skipIf(skip)("other plans cannot make or use profiles; without an account there are none", async () => {
    const pro = await fx.signUp("ProProfiles", "pro");
    const refused = await profiles("POST", "/", { cookie: pro.cookie }, { name: "mine", format: "mp4-360" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: { code: "plan.required", message: "Custom download profiles come with the Ultimate plan. Change your plan to use them." } });
    expect((await profiles("GET", "/", {})).status).toBe(401);
    const anonymous = await fx.post("/downloads", { url: ALL_FORMATS_URL, profile: "anything" });
    expect(anonymous.status).toBe(401);
    expect((await fx.post("/downloads", { url: ALL_FORMATS_URL }, pro.cookie)).status).toBe(400);
  });
});
