import { lazy, Suspense, type ComponentType } from "react";
import type { HomeSectionsProps } from "./home-sections.tsx";

/**
 * The home page's sections below the downloader (why us, the steps, premium, the blog, the FAQ)
 * are server-rendered in full but are not part of the page's first-load JavaScript: their chunk
 * loads when hydration reaches them, and React keeps the server's markup in place (a dehydrated
 * Suspense boundary) until it has arrived, so nothing goes blank and the link form is interactive
 * first. The server renders them in place rather than through `lazy`: its `renderToString`
 * does not wait for a lazy component, so it needs the module loaded before the render
 * (`loadHomeSections`, awaited by the home loader).
 */
let loaded: ComponentType<HomeSectionsProps> | null = null;
let loading: Promise<{ default: ComponentType<HomeSectionsProps> }> | null = null;

export function loadHomeSections() {
  loading ??= import("./home-sections.tsx").then(
    (m) => {
      loaded = m.default;
      return m;
    },
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}

const LazySections = lazy(loadHomeSections);

export function HomeBelowFold(props: HomeSectionsProps) {
  const Sections = loaded;
  return <Suspense fallback={null}>{Sections ? <Sections {...props} /> : <LazySections {...props} />}</Suspense>;
}
