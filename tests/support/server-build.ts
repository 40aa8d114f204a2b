import type { ServerBuild } from "react-router";

/** A hand-made React Router server build: the given entry, routes and assets, production settings for the rest. */
export function serverBuild(parts: { entry: unknown; routes: Record<string, unknown>; assets: Record<string, unknown> }): ServerBuild {
  return {
    ...parts,
    publicPath: "/",
    assetsBuildDirectory: "/nonexistent",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}
