/**
 * Issue 31 §3 through /api/v1 as the host mounts it, on the mock platform's video with captions
 * in three languages and a translatable track: resolve lists the tracks and the languages they
 * can be translated into; a Pro user downloads German SRT and an auto-translated French VTT; a
 * language the video lacks is a 422; a free user keeps the English transcript and is refused a
 * chosen language by plan.
 */
import { afterAll, describe, expect, it } from "vitest";
import { MOCK_CAPTION_FIRST_LINES } from "#tests/mocks/platform.ts";
import { MOCK_CAPTION_LINES } from "#tests/mocks/youtube.ts";
import { testDatabases } from "#tests/support/test-db.ts";
import { closePlatform, planFixtureFor, type PlanFixture } from "../plans/plan-fixture.ts";

afterAll(() => closePlatform());

const SUBS_URL = "https://www.youtube.com/watch?v=vidfetchSub";
const TITLE = "Sample clip with subtitles in three languages";

interface Created {
  downloadUrl: string;
  filename: string;
}

describe.each(testDatabases)("subtitles in every language on $name", (variant) => {
  let fx: PlanFixture;
  const { skip } = planFixtureFor(variant, (started) => ({ fx } = started));

  async function download(body: object, cookie?: string): Promise<{ created: Created; text: string }> {
    const res = await fx.post("/downloads", body, cookie);
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
    const created = (await res.json()) as Created;
    const file = await fetch(created.downloadUrl);
    expect(file.status).toBe(200);
    return { created, text: await file.text() };
  }

  it.skipIf(skip)("resolve lists every caption track by language and the languages a track can be translated into", async () => {
    const res = await fx.post("/resolve", { url: SUBS_URL });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { subtitles: unknown[]; subtitleTranslations: unknown[] };
    expect(body.subtitles).toEqual([
      { language: "en", name: "English", auto: false, translatable: true },
      { language: "en", name: "English (auto-generated)", auto: true, translatable: true },
      { language: "de", name: "German", auto: false, translatable: false },
      { language: "es", name: "Spanish", auto: false, translatable: false },
    ]);
    expect(body.subtitleTranslations).toEqual([
      { language: "fr", name: "French" },
      { language: "ja", name: "Japanese" },
    ]);
    // a video without captions lists none
    const plain = (await (await fx.post("/resolve", { url: "https://www.youtube.com/watch?v=vidfetch720" })).json()) as { subtitles: unknown[]; subtitleTranslations: unknown[] };
    expect(plain).toMatchObject({ subtitles: [], subtitleTranslations: [] });
  });

  it.skipIf(skip)("a Pro user gets German SRT, Spanish TXT and an auto-translated French VTT, each named by its language", async () => {
    const pro = await fx.signUp("SubsPro", "pro");
    const german = await download({ url: SUBS_URL, format: "srt", language: "de" }, pro.cookie);
    expect(german.created.filename).toBe(`${TITLE}.de.srt`);
    expect(german.text).toMatch(/^1\r?\n00:00:00,000 --> 00:00:02,000\r?\n/);
    expect(german.text).toContain(MOCK_CAPTION_FIRST_LINES.de);
    expect(german.text).not.toContain(MOCK_CAPTION_FIRST_LINES.en);

    const spanish = await download({ url: SUBS_URL, format: "transcript", language: "es" }, pro.cookie);
    expect(spanish.created.filename).toMatch(/-transcript-es\.txt$/);
    expect(spanish.text).toContain(MOCK_CAPTION_FIRST_LINES.es);

    const french = await download({ url: SUBS_URL, format: "vtt", language: "fr" }, pro.cookie);
    expect(french.created.filename).toBe(`${TITLE}.fr.vtt`);
    expect(french.text.startsWith("WEBVTT")).toBe(true);
    expect(french.text).toContain(`[fr] ${MOCK_CAPTION_LINES[0]!.text}`);

    // without a language: the English track, as before
    const english = await download({ url: SUBS_URL, format: "srt" }, pro.cookie);
    expect(english.created.filename).toBe(`${TITLE}.srt`);
    expect(english.text).toContain(MOCK_CAPTION_FIRST_LINES.en);

    // the GET form takes the language too
    const redirected = await fetch(`${fx.origin}/api/v1/download?url=${encodeURIComponent(SUBS_URL)}&format=srt&language=de`, { headers: { cookie: pro.cookie }, redirect: "manual" });
    expect(redirected.status).toBe(302);
    expect(await (await fetch(redirected.headers.get("location")!)).text()).toContain(MOCK_CAPTION_FIRST_LINES.de);
  });

  it.skipIf(skip)("a language the video lacks, a malformed one, or one for a video format are refused", async () => {
    const pro = await fx.signUp("SubsRefused", "pro");
    const missing = await fx.post("/downloads", { url: SUBS_URL, format: "srt", language: "it" }, pro.cookie);
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({ error: { code: "format.unavailable", message: "This video has no subtitles in that language." } });
    const malformed = await fx.post("/downloads", { url: SUBS_URL, format: "srt", language: "../../x" }, pro.cookie);
    expect(malformed.status).toBe(400);
    const video = await fx.post("/downloads", { url: SUBS_URL, format: "mp4-360", language: "de" }, pro.cookie);
    expect(video.status).toBe(400);
    expect(((await video.json()) as { error: { message: string } }).error.message).toBe("A language can only be chosen for subtitles and transcripts.");
  });

  it.skipIf(skip)("free users keep the English transcript and are refused a chosen language by plan", async () => {
    const free = await fx.signUp("SubsFree");
    const english = await download({ url: SUBS_URL, format: "transcript" }, free.cookie);
    expect(english.text).toContain(MOCK_CAPTION_FIRST_LINES.en);
    for (const cookie of [free.cookie, undefined]) {
      const refused = await fx.post("/downloads", { url: SUBS_URL, format: "transcript", language: "de" }, cookie);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: { code: "plan.required", message: "Subtitles in every language come with the Pro and Ultimate plans. Subscribe to use them." } });
    }
    // SRT itself is a Pro format, as before
    expect((await fx.post("/downloads", { url: SUBS_URL, format: "srt", language: "de" }, free.cookie)).status).toBe(403);
  });
});
