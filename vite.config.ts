import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { serviceWorkerPlugin } from "./app/modules/offline/service-worker-build.ts";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), serviceWorkerPlugin()],
  build: { sourcemap: false },
  // the tools' media worker (app/modules/tools/media/media.worker.ts) is an ES module: its
  // libraries load code lazily, which the default IIFE worker format cannot bundle
  worker: { format: "es" },
});
