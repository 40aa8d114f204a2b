import { PlanUpgrade } from "./plan-upgrade.tsx";
import { useEffect, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { useHydrated } from "#app/lib/forms/use-hydrated.ts";
import { SENDER_NAME_MAX } from "#app/modules/white-label/sender-name.ts";
import { shortDate, type ApiKeyFormResult, type ApiKeysView } from "./dashboard-data.ts";

/** a key's name, as the server takes it */
const NAME_MAX = 60;

/**
 * The API tab (issue 31 §1): create a named key (shown once, in the create's answer only), the
 * keys with their use this month, revoke one, and how to call the API with it. Plain forms, so
 * it works without JavaScript; with it, a Copy button. Plans without API access see which plan
 * has it, and only the keys kept from an earlier plan (refused when used), to revoke them.
 */
export function ApiKeysPanel({ view, actionResult }: { view: ApiKeysView; actionResult?: ApiKeyFormResult }) {
  const navigation = useNavigation();
  const creating = navigation.state !== "idle" && navigation.formData?.get("intent") === "create-key";
  const formRef = useRef<HTMLFormElement>(null);
  const created = actionResult?.ok ? actionResult.createdKey : null;
  const createError = actionResult && !actionResult.ok && actionResult.intent === "create-key" ? actionResult.message : null;
  const revokeAnswer = actionResult?.intent === "revoke-key" ? actionResult : null;
  // the name typed for a key that now exists is not kept for the next one
  useEffect(() => {
    if (created) formRef.current?.reset();
  }, [created]);

  if (!view.canUse && view.keys.length === 0) return <PlanUpgrade text={view.upgradeText} />;

  return (
    <div className="grid gap-8">
      {view.canUse ? null : <PlanUpgrade text={view.upgradeText} />}
      {view.canUse ? (
        <Form ref={formRef} method="post" className="grid gap-4 rounded-lg border border-slate-200 p-4 sm:p-6" aria-labelledby="create-key-heading">
          <h3 id="create-key-heading" className="text-lg font-semibold text-slate-900">
            Create an API key
          </h3>
          <input type="hidden" name="intent" value="create-key" />
          <div className="grid gap-2">
            <Label htmlFor="key-name">Key name</Label>
            <Input
              id="key-name"
              name="name"
              required
              maxLength={NAME_MAX}
              autoComplete="off"
              placeholder="Build server"
              aria-invalid={createError ? true : undefined}
              aria-describedby={createError ? "key-name-error" : undefined}
            />
          </div>
          {createError ? (
            <p id="key-name-error" role="alert" className="text-sm text-red-700">
              {createError}
            </p>
          ) : null}
          <div>
            <Button type="submit" disabled={creating}>
              {creating ? "Creating..." : "Create key"}
            </Button>
          </div>
        </Form>
      ) : null}

      {created ? <NewKey name={created.name} apiKey={created.key} /> : null}

      <section aria-labelledby="keys-heading">
        <h3 id="keys-heading" className="mb-1 text-lg font-semibold text-slate-900">
          Your API keys
        </h3>
        <p className="mb-3 text-sm text-slate-700">
          You have {view.keys.length} of {view.maxKeys} keys.
        </p>
        {revokeAnswer ? (
          revokeAnswer.ok ? (
            <p role="status" className="mb-3 text-sm text-slate-700">
              {revokeAnswer.message}
            </p>
          ) : (
            <p role="alert" className="mb-3 text-sm text-red-700">
              {revokeAnswer.message}
            </p>
          )
        ) : null}
        {view.keys.length === 0 ? (
          <p className="text-sm text-slate-600">No keys yet.</p>
        ) : (
          <ul className="grid gap-3">
            {view.keys.map((key) => (
              <li key={key.id} data-testid="api-key-row" className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-slate-200 p-4">
                <div className="grid min-w-0 gap-1">
                  <p className="truncate font-medium text-slate-900" title={key.name}>
                    {key.name}
                  </p>
                  <p className="font-mono text-sm text-slate-700">{`${key.prefix}…`}</p>
                  <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm text-slate-700">
                    <dt className="text-slate-600">Created</dt>
                    <dd>
                      <time dateTime={key.createdAt}>{shortDate(key.createdAt)}</time>
                    </dd>
                    <dt className="text-slate-600">Last used</dt>
                    <dd>{key.lastUsedAt ? <time dateTime={key.lastUsedAt}>{shortDate(key.lastUsedAt)}</time> : "Never"}</dd>
                    <dt className="text-slate-600">Requests this month</dt>
                    <dd data-testid="api-key-requests">{key.requestsThisMonth}</dd>
                  </dl>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke-key" />
                  <input type="hidden" name="keyId" value={key.id} />
                  <Button type="submit" variant="outline" size="sm" aria-label={`Revoke key ${key.name}`}>
                    Revoke
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>

      {view.whiteLabel ? <WhiteLabelForm whiteLabel={view.whiteLabel} answer={actionResult?.intent === "white-label" ? actionResult : null} /> : null}

      {view.canUse ? (
        <section aria-labelledby="api-usage-heading" className="grid gap-2">
          <h3 id="api-usage-heading" className="text-lg font-semibold text-slate-900">
            Using a key
          </h3>
          <p className="text-sm text-slate-700">
            Send the key in the Authorization header of any {view.siteUrl}/api/v1 request. Anyone with the key can use the API as you: keep it secret, and
            revoke it if it leaks.
          </p>
          <pre className="rounded-md bg-slate-900 p-3 text-xs whitespace-pre-wrap text-slate-100 wrap-anywhere">
            <code>{`curl -H "Authorization: Bearer YOUR_KEY" -H "content-type: application/json" -d '{"url":"https://youtu.be/…"}' ${view.siteUrl}/api/v1/resolve`}</code>
          </pre>
          {view.perMinute !== null ? (
            <p className="text-sm text-slate-700">
              Each key can make {view.perMinute} requests a minute; the answers carry RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset headers.
            </p>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}


/** The key just created: shown this once, selectable, and copied with a press when JavaScript runs. */
function NewKey({ name, apiKey }: { name: string; apiKey: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => setCopied("idle"), [apiKey]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(apiKey);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  }

  return (
    <section aria-labelledby="new-key-heading" className="grid gap-3 rounded-lg border border-green-300 bg-green-50 p-4 sm:p-6">
      <h3 id="new-key-heading" className="text-lg font-semibold text-slate-900">
        Your new key: {name}
      </h3>
      <p role="status" className="text-sm font-medium text-slate-900">
        Copy this key now: it will not be shown again.
      </p>
      <div className="flex flex-wrap gap-2">
        <Input
          readOnly
          value={apiKey}
          aria-label={`API key ${name}`}
          spellCheck={false}
          autoComplete="off"
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 flex-1 font-mono"
          data-testid="new-api-key"
        />
        {hydrated && typeof navigator !== "undefined" && navigator.clipboard ? (
          <Button type="button" variant="outline" onClick={() => void copy()}>
            {copied === "copied" ? "Copied" : "Copy"}
          </Button>
        ) : null}
      </div>
      {copied === "failed" ? (
        <p role="alert" className="text-sm text-red-700">
          The key could not be copied: select it and copy it yourself.
        </p>
      ) : null}
    </section>
  );
}

/**
 * The white label (Ultimate): the sender name of the mails about jobs made with an API key. The
 * files and mails of those calls carry no site name; empty goes back to the account's name.
 */
function WhiteLabelForm({ whiteLabel, answer }: { whiteLabel: NonNullable<ApiKeysView["whiteLabel"]>; answer: ApiKeyFormResult | null }) {
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "white-label";
  const failed = answer && !answer.ok ? answer.message : null;
  return (
    <Form method="post" className="grid gap-4 rounded-lg border border-slate-200 p-4 sm:p-6" aria-labelledby="white-label-heading">
      <h3 id="white-label-heading" className="text-lg font-semibold text-slate-900">
        White label
      </h3>
      <p className="text-sm text-slate-700">
        Files and mails from your API calls carry no name of ours: a ZIP you don&rsquo;t name is saved as &ldquo;Bulk&nbsp;<i>date</i>.zip&rdquo;, and the
        mail saying a job you made with a key is ready comes from the sender name below.
      </p>
      <input type="hidden" name="intent" value="white-label" />
      <div className="grid gap-2">
        <Label htmlFor="white-label-sender">Sender name</Label>
        <Input
          id="white-label-sender"
          name="senderName"
          maxLength={SENDER_NAME_MAX}
          autoComplete="organization"
          defaultValue={whiteLabel.senderName ?? ""}
          placeholder={whiteLabel.accountName}
          aria-invalid={failed ? true : undefined}
          aria-describedby={failed ? "white-label-sender-help white-label-sender-error" : "white-label-sender-help"}
        />
        <p id="white-label-sender-help" className="text-sm text-slate-600">
          Leave it empty to use your account&rsquo;s name ({whiteLabel.accountName}).
        </p>
      </div>
      {answer ? (
        <p id={failed ? "white-label-sender-error" : undefined} role={failed ? "alert" : "status"} className={failed ? "text-sm text-red-700" : "text-sm text-slate-700"}>
          {answer.message}
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={saving}>
          {saving ? "Saving..." : "Save sender name"}
        </Button>
      </div>
    </Form>
  );
}
