import { describe } from "vitest";
import { platformHealthContract } from "#tests/support/platform-health-contract.ts";
import { memoryPlatformHealth } from "./health-store.server.ts";

describe("in-process platform health record", () => {
  platformHealthContract(() => memoryPlatformHealth());
});
