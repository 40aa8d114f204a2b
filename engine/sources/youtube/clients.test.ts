import pino from "pino";
import { describe, expect, it } from "vitest";
import { DEFAULT_YOUTUBE_CLIENTS, SUPPORTED_YOUTUBE_CLIENTS, usableClients } from "./resolve.ts";

const logger = pino({ level: "silent" });

describe("usableClients", () => {
  it("defaults to the evidence-based order", () => {
    expect(DEFAULT_YOUTUBE_CLIENTS).toEqual(["VISIONOS", "ANDROID"]);
    expect(usableClients([], logger)).toEqual(["VISIONOS", "ANDROID"]);
  });
  it("keeps the configured order, upper-cased, and skips unknown names", () => {
    expect(usableClients(["android", " VISIONOS ", "NOKIA"], logger)).toEqual(["ANDROID", "VISIONOS"]);
    expect(usableClients(["NOKIA"], logger)).toEqual(["VISIONOS", "ANDROID"]);
  });
  it("knows the clients youtubei.js can build", () => {
    expect(SUPPORTED_YOUTUBE_CLIENTS).toEqual(expect.arrayContaining(["VISIONOS", "ANDROID", "IOS", "WEB", "WEB_EMBEDDED", "TV"]));
  });
});
