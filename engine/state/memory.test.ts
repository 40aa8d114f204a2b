import { memoryEngineState } from "./memory.ts";
import { engineStateContract } from "#tests/support/engine-state-contract.ts";

engineStateContract("in-process state", {
  make: (limits, now = Date.now) => memoryEngineState({ limits, now }),
  shared: false,
});
