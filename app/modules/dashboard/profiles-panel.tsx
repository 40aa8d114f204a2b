import { PlanUpgrade } from "./plan-upgrade.tsx";
import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { defaultFormatOf } from "#app/modules/downloader/components/format-select.tsx";
import type { ProfileFormResult, ProfilesView } from "./dashboard-data.ts";

/** a profile's name, as the server takes it */
const NAME_MAX = 60;
/** the placeholders a file name may hold */
export const TEMPLATE_PLACEHOLDERS = ["{title}", "{channel}", "{id}", "{date}", "{format}", "{platform}"] as const;

/**
 * The Profiles tab (issue 31 §2): save a format with an optional subtitle language and file
 * name as a named profile, offered above the formats of every video looked up; the profiles,
 * each with Delete. Plain forms, so it works without JavaScript. Plans without profiles see
 * which plan has them, and only the profiles kept from an earlier plan, to delete them.
 */
export function ProfilesPanel({ view, actionResult }: { view: ProfilesView; actionResult?: ProfileFormResult }) {
  const navigation = useNavigation();
  const creating = navigation.state !== "idle" && navigation.formData?.get("intent") === "create-profile";
  const formRef = useRef<HTMLFormElement>(null);
  const createAnswer = actionResult?.intent === "create-profile" ? actionResult : null;
  const createError = createAnswer && !createAnswer.ok ? createAnswer.message : null;
  // what was typed for a refused profile stays in the form (a plain POST renders it again)
  const typed = createAnswer && !createAnswer.ok ? createAnswer.typed : null;
  const deleteAnswer = actionResult?.intent === "delete-profile" ? actionResult : null;
  const full = view.profiles.length >= view.maxProfiles;
  // the values of a profile that now exists are not kept for the next one
  useEffect(() => {
    if (createAnswer?.ok) formRef.current?.reset();
  }, [createAnswer]);

  if (!view.canUse && view.profiles.length === 0) return <PlanUpgrade text={view.upgradeText} />;

  return (
    <div className="grid gap-8">
      {view.canUse ? null : <PlanUpgrade text={view.upgradeText} />}
      {view.canUse ? (
        <Form ref={formRef} method="post" className="grid gap-4 rounded-lg border border-slate-200 p-4 sm:p-6" aria-labelledby="new-profile-heading">
          <h3 id="new-profile-heading" className="text-lg font-semibold text-slate-900">
            New profile
          </h3>
          <input type="hidden" name="intent" value="create-profile" />
          <div className="grid gap-2">
            <Label htmlFor="profile-name">Name</Label>
            <Input
              id="profile-name"
              name="name"
              required
              maxLength={NAME_MAX}
              autoComplete="off"
              placeholder="Archive"
              defaultValue={typed?.name}
              aria-invalid={createError ? true : undefined}
              aria-describedby={createError ? "profile-error" : undefined}
            />
          </div>
          <div className="grid gap-2 sm:max-w-xs">
            <Label htmlFor="profile-format">Format</Label>
            <select
              id="profile-format"
              name="format"
              defaultValue={typed?.format || defaultFormatOf(view.formats)}
              className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm"
            >
              {view.formats.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.label}
                </option>
              ))}
            </select>
          </div>
          <div className="grid gap-2 sm:max-w-xs">
            <Label htmlFor="profile-language">Subtitle language (optional)</Label>
            <Input
              id="profile-language"
              name="language"
              maxLength={35}
              autoComplete="off"
              spellCheck={false}
              placeholder="e.g. de"
              defaultValue={typed?.language}
              aria-describedby="profile-language-hint"
            />
            <p id="profile-language-hint" className="text-sm text-slate-600">
              A language code such as de or pt-BR, for SRT, VTT and transcript profiles only. Empty: the video&apos;s own pick.
            </p>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="profile-template">File name (optional)</Label>
            <Input
              id="profile-template"
              name="filenameTemplate"
              maxLength={200}
              autoComplete="off"
              spellCheck={false}
              placeholder="{channel} - {title} ({date})"
              defaultValue={typed?.filenameTemplate}
              aria-describedby="profile-template-hint"
            />
            <p id="profile-template-hint" className="text-sm text-slate-600">
              Placeholders: {TEMPLATE_PLACEHOLDERS.join(" ")}. The file&apos;s extension is added for you; empty: the usual name.
            </p>
          </div>
          {createError ? (
            <p id="profile-error" role="alert" className="text-sm text-red-700">
              {createError}
            </p>
          ) : null}
          <div>
            <Button type="submit" disabled={creating || full}>
              {creating ? "Saving..." : "Save profile"}
            </Button>
          </div>
          {full ? <p className="text-sm text-slate-600">You have the most profiles an account can hold: delete one to add another.</p> : null}
        </Form>
      ) : null}

      <section aria-labelledby="profiles-heading">
        <h3 id="profiles-heading" className="mb-1 text-lg font-semibold text-slate-900">
          Your profiles
        </h3>
        <p className="mb-3 text-sm text-slate-700">
          You have {view.profiles.length} of {view.maxProfiles} profiles.
        </p>
        {deleteAnswer ? (
          deleteAnswer.ok ? (
            <p role="status" className="mb-3 text-sm text-slate-700">
              {deleteAnswer.message}
            </p>
          ) : (
            <p role="alert" className="mb-3 text-sm text-red-700">
              {deleteAnswer.message}
            </p>
          )
        ) : null}
        {view.profiles.length === 0 ? (
          <p className="text-sm text-slate-600">No profiles yet.</p>
        ) : (
          <ul className="grid gap-3">
            {view.profiles.map((profile) => (
              <li key={profile.id} data-testid="profile-row" className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-slate-200 p-4">
                <div className="grid min-w-0 gap-1">
                  <p className="truncate font-medium text-slate-900" title={profile.name}>
                    {profile.name}
                  </p>
                  <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm text-slate-700">
                    <dt className="text-slate-600">Format</dt>
                    <dd>{profile.formatLabel}</dd>
                    <dt className="text-slate-600">Subtitle language</dt>
                    <dd>{profile.language ?? "The video's own pick"}</dd>
                    <dt className="text-slate-600">File name</dt>
                    <dd className="font-mono [overflow-wrap:anywhere]">{profile.filenameTemplate ?? "The usual name"}</dd>
                  </dl>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="delete-profile" />
                  <input type="hidden" name="profileId" value={profile.id} />
                  <Button type="submit" variant="outline" size="sm" aria-label={`Delete profile ${profile.name}`}>
                    Delete
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

