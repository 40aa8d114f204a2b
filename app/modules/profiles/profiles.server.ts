/**
 * Custom download profiles (issue 31 §2, Ultimate): a name, a format, a subtitle language and a
 * file-name template, saved per account. The engine never sees a profile: a request naming one
 * is turned into its format, language and template here (`resolveProfile`).
 */
import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { holds, mayDownload, type PlanId } from "#common/plans.ts";
import type { Database } from "#db/client.ts";
import { downloadProfiles } from "#db/schema/profiles.ts";
import { isLanguageTag } from "#engine/captions/languages.ts";
import { FORMAT_IDS } from "#engine/formats.ts";
import { planRequired, premiumRefusal } from "#engine/refusals.ts";
import { templateProblem } from "#engine/serve/filename-template.ts";
import { callerOfOwner } from "#app/modules/jobs/scheduled-jobs.server.ts";
import { ProfileError } from "./profile-messages.ts";

export const MAX_PROFILES_PER_USER = 20;
const NAME_MAX = 60;
const TEXT_FORMATS = ["transcript", "srt", "vtt"];

export interface ProfileOwner {
  userId: string;
  plan: PlanId;
}

export interface Profile {
  id: string;
  name: string;
  format: string;
  language: string | null;
  filenameTemplate: string | null;
  createdAt: string;
}

export interface ProfileInput {
  name: string;
  format: string;
  language?: string | null;
  filenameTemplate?: string | null;
}

type Row = typeof downloadProfiles.$inferSelect;

function view(row: Row): Profile {
  return { id: row.id, name: row.name, format: row.format, language: row.language, filenameTemplate: row.filenameTemplate, createdAt: row.createdAt.toISOString() };
}

function checkRight(owner: ProfileOwner): void {
  if (!holds(owner.plan, "downloadProfiles")) throw planRequired(callerOfOwner(owner), "downloadProfiles");
}

/** the input made ready to store, or a ProfileError saying what is wrong */
function checked(owner: ProfileOwner, input: ProfileInput): Omit<Row, "id" | "userId" | "createdAt"> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > NAME_MAX || /\p{Cc}/u.test(name)) throw new ProfileError("profile.invalid");
  if (!(FORMAT_IDS as readonly string[]).includes(input.format)) throw new ProfileError("profile.invalid");
  if (!mayDownload(owner.plan, input.format)) throw premiumRefusal(callerOfOwner(owner));
  const language = input.language?.trim() || null;
  if (language !== null) {
    if (!TEXT_FORMATS.includes(input.format)) throw new ProfileError("profile.invalid", "A language can only be chosen for subtitles and transcripts.");
    if (!isLanguageTag(language)) throw new ProfileError("profile.invalid", "That is not a language code (for example de, pt-BR).");
  }
  const filenameTemplate = input.filenameTemplate?.trim() || null;
  const problem = filenameTemplate === null ? null : templateProblem(filenameTemplate);
  if (problem) throw new ProfileError("profile.invalid", problem);
  return { name, format: input.format, language, filenameTemplate };
}

export function createProfiles(deps: { db: Database; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  async function owned(userId: string, id: string): Promise<Row> {
    const [row] = await db.select().from(downloadProfiles).where(and(eq(downloadProfiles.id, id), eq(downloadProfiles.userId, userId))).limit(1);
    if (!row) throw new ProfileError("profile.not_found");
    return row;
  }

  return {
    async create(owner: ProfileOwner, input: ProfileInput): Promise<Profile> {
      checkRight(owner);
      const values = checked(owner, input);
      if ((await db.$count(downloadProfiles, eq(downloadProfiles.userId, owner.userId))) >= MAX_PROFILES_PER_USER) throw new ProfileError("profile.too_many");
      const [row] = await db.insert(downloadProfiles).values({ id: randomUUID(), userId: owner.userId, createdAt: now(), ...values }).returning();
      return view(row!);
    },

    async list(userId: string): Promise<Profile[]> {
      const rows = await db.select().from(downloadProfiles).where(eq(downloadProfiles.userId, userId)).orderBy(asc(downloadProfiles.createdAt));
      return rows.map(view);
    },

    async update(owner: ProfileOwner, id: string, input: ProfileInput): Promise<Profile> {
      checkRight(owner);
      await owned(owner.userId, id);
      const [row] = await db.update(downloadProfiles).set(checked(owner, input)).where(and(eq(downloadProfiles.id, id), eq(downloadProfiles.userId, owner.userId))).returning();
      return view(row!);
    },

    async remove(userId: string, id: string): Promise<void> {
      const [gone] = await db.delete(downloadProfiles).where(and(eq(downloadProfiles.id, id), eq(downloadProfiles.userId, userId))).returning({ id: downloadProfiles.id });
      if (!gone) throw new ProfileError("profile.not_found");
    },

    /** What a request naming a profile downloads: its format, language and template (the owner's own profile, with the right). */
    async resolveProfile(owner: ProfileOwner, id: string): Promise<{ format: string; language?: string; filenameTemplate?: string }> {
      checkRight(owner);
      const row = await owned(owner.userId, id);
      return { format: row.format, ...(row.language ? { language: row.language } : {}), ...(row.filenameTemplate ? { filenameTemplate: row.filenameTemplate } : {}) };
    },
  };
}

export type Profiles = ReturnType<typeof createProfiles>;
