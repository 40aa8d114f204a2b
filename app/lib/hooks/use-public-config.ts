import { useRouteLoaderData } from "react-router";
import type { PublicConfig } from "../public-config.ts";

/** The public configuration the root loader sends (brand name, contact email, ...). */
export function usePublicConfig(): PublicConfig {
  const root = useRouteLoaderData("root") as { publicConfig?: PublicConfig } | undefined;
  if (!root?.publicConfig) throw new Error("usePublicConfig: the root loader data is missing");
  return root.publicConfig;
}
