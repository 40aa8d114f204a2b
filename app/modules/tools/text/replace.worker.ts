/// <reference lib="webworker" />
/**
 * Runs one find-and-replace off the page's thread: a regular expression that backtracks
 * catastrophically ("(a+)+$") can then be stopped instead of freezing the tab.
 */
import { findAndReplace, type ReplaceOptions } from "./text-transforms.ts";

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = (event: MessageEvent<{ text: string; find: string; replacement: string; opts: ReplaceOptions }>) => {
  const { text, find, replacement, opts } = event.data;
  scope.postMessage(findAndReplace(text, find, replacement, opts));
};
