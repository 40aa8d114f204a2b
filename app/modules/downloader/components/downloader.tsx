import { Component, lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import type { ExampleLink } from "../example-links.ts";
import type { FormatTab } from "../format-groups.ts";
import { useVideoLookup, type LookupState } from "../hooks/use-video-lookup.ts";
import type { DownloadProfileChoice, PlaylistPlan } from "../downloader-offer.ts";
import type { DownloaderBodyProps } from "./downloader-body.tsx";
import { ExampleLinks } from "./example-links.tsx";
import { OfflinePanelPlaceholder, PreviewLoading } from "./preview-skeleton.tsx";
import { UrlForm } from "./url-form.tsx";

/**
 * The preview, formats and downloads are a separate chunk: the first load carries only the form
 * (usable at once), and the rest arrives while the visitor reads or types. A failed chunk load
 * (offline before it arrived) keeps the placeholder and tries again when the connection returns.
 */
let bodyImport: Promise<{ default: React.ComponentType<DownloaderBodyProps> }> | null = null;
function importBody() {
  bodyImport ??= import("./downloader-body.tsx").catch((err: unknown) => {
    bodyImport = null;
    throw err;
  });
  return bodyImport;
}
/** lazy() remembers a failed load for good, so each retry gets a fresh one. */
const lazyBodies = new Map<number, React.LazyExoticComponent<React.ComponentType<DownloaderBodyProps>>>();
function lazyBody(attempt: number) {
  let body = lazyBodies.get(attempt);
  if (!body) {
    body = lazy(importBody);
    lazyBodies.set(attempt, body);
  }
  return body;
}

/** Shown until the body is there: the same boxes, inert. */
function BodyPlaceholder({ state }: { state: LookupState }) {
  return (
    <>
      {state.status === "loading" || state.status === "loaded" ? <PreviewLoading /> : null}
      <OfflinePanelPlaceholder />
    </>
  );
}

class BodyLoadBoundary extends Component<{ fallback: ReactNode; onRetry: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidUpdate(_: unknown, prev: { failed: boolean }) {
    if (this.state.failed && !prev.failed) {
      const retry = () => {
        this.setState({ failed: false });
        this.props.onRetry();
      };
      window.addEventListener("online", retry, { once: true });
    }
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

export interface DownloaderProps {
  /** `/?url=`: pre-filled and resolved at once */
  initialUrl?: string | null;
  isPremium?: boolean;
  /** format tabs to offer */
  tabs?: FormatTab[];
  /** the example row's links; none: no row */
  examples?: ExampleLink[];
  formLabel?: string;
  placeholder?: string;
  /** the form sits in the hero; the preview and formats below it */
  heroSlot?: (form: ReactNode) => ReactNode;
  /** what a playlist's card offers this viewer (from their plan); none: the videos one by one, no ZIP */
  playlistPlan?: PlaylistPlan;
  /** the viewer's plan may choose the subtitles' language (Pro, Ultimate); none: the choice is shown unavailable */
  subtitleLanguages?: boolean;
  /** the signed-in viewer's download profiles (Ultimate): one-click buttons above the formats; none: no row */
  profiles?: DownloadProfileChoice[];
}

/** A viewer whose plan the page does not know: the playlist's videos one by one, no ZIP. */
const NO_BULK: PlaylistPlan = { canBulk: false, maxLinks: 0, formats: [] };

const IDLE_LOAD_DELAY_MS = 1500;

/** The whole journey from a pasted link to a saved file, shared by the home and Shorts pages. */
export function Downloader({ initialUrl = null, isPremium = false, tabs, examples, formLabel, placeholder, heroSlot, playlistPlan = NO_BULK, subtitleLanguages = false, profiles }: DownloaderProps) {
  const [value, setValue] = useState(initialUrl ?? "");
  const { state, lookup } = useVideoLookup(initialUrl);
  const [wantBody, setWantBody] = useState(false);
  const [attempt, setAttempt] = useState(0);

  // Load the rest right away when there is something to show, else once the page has settled.
  useEffect(() => {
    if (state.status !== "idle") return setWantBody(true);
    const t = setTimeout(() => setWantBody(true), IDLE_LOAD_DELAY_MS);
    return () => clearTimeout(t);
  }, [state.status]);

  const DownloaderBody = lazyBody(attempt);
  const bodyRef = useRef<HTMLDivElement>(null);
  // a playlist entry's "Download this video": the link goes into the form, as if pasted, and the
  // visitor is taken to where its preview appears (the list goes; the preview's status is announced)
  const pickVideo = useCallback(
    (url: string) => {
      setValue(url);
      void lookup(url);
      bodyRef.current?.scrollIntoView({ block: "start" });
    },
    [lookup],
  );
  const placeholderBody = <BodyPlaceholder state={state} />;
  const form = (
    <div onFocusCapture={() => void importBody().catch(() => undefined)}>
      <UrlForm value={value} onChange={setValue} onSubmit={(url) => void lookup(url)} busy={state.status === "loading"} label={formLabel} placeholder={placeholder} />
      {examples?.length ? <ExampleLinks links={examples} onPick={setValue} disabled={state.status === "loading"} /> : null}
    </div>
  );

  return (
    <>
      {heroSlot ? heroSlot(form) : form}
      <div ref={bodyRef} className="mx-auto max-w-5xl px-4 sm:px-6">
        {wantBody ? (
          <BodyLoadBoundary key={attempt} fallback={placeholderBody} onRetry={() => setAttempt((n) => n + 1)}>
            <Suspense fallback={placeholderBody}>
              <DownloaderBody state={state} isPremium={isPremium} tabs={tabs} playlistPlan={playlistPlan} subtitleLanguages={subtitleLanguages} profiles={profiles} onPickVideo={pickVideo} />
            </Suspense>
          </BodyLoadBoundary>
        ) : (
          placeholderBody
        )}
      </div>
    </>
  );
}
