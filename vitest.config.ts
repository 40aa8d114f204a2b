import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["{app,engine,db,server,common,content,jobs,tests}/**/*.test.{ts,tsx}"],
    exclude: ["tests/e2e/**", "node_modules/**"],
    environment: "node",
    setupFiles: ["./tests/setup/vitest.setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
