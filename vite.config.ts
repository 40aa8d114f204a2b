import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { serviceWorkerPlugin } from "./app/modules/offline/service-worker-build.ts";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), serviceWorkerPlugin()],
  build: {
    sourcemap: false,
    // lucide's icon modules make a component of their drawing when loaded; the site draws its
    // icons from that drawing alone (app/components/icons/svg-icon.ts), so the call and lucide's
    // component code can go (docs/decisions/028)
    rollupOptions: { treeshake: { manualPureFunctions: ["createLucideIcon"] } },
  },
  // bundled into the server build, so it keeps only the icons the pages use: as an external
  // package Node loads all of lucide's icons (1.3 MB of source and their objects held for the
  // life of the process; docs/decisions/026)
  ssr: { noExternal: ["lucide-react"] },
  // the tools' media worker (app/modules/tools/media/media.worker.ts) is an ES module: its
  // libraries load code lazily, which the default IIFE worker format cannot bundle
  worker: { format: "es" },
});
