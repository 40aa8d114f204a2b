import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Parallel builds (e2e runs, CI) may each use their own output folder.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
