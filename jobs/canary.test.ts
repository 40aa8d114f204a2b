import { describe, expect, it } from "vitest";
import { canaryLinksFor, DEFAULT_CANARY_LINKS } from "#app/modules/platform-health/run-canary.server.ts";
import { canaryCron } from "./canary.ts";

describe("canary schedule and links", () => {
  it("turns CANARY_INTERVAL_MINUTES into a cron, 0 into none", () => {
    expect([0, 5, 30, 45, 60, 90, 180, 1440].map(canaryCron)).toEqual([null, "*/5 * * * *", "*/30 * * * *", "*/45 * * * *", "3 */1 * * *", "3 */2 * * *", "3 */3 * * *", "3 0 * * *"]);
  });

  it("takes CANARY_LINKS, else the mock platform's YouTube videos under MOCKS=true, else the long-lived defaults", () => {
    expect(canaryLinksFor({ CANARY_LINKS: " https://youtu.be/a , https://vimeo.com/1" }, null)).toEqual(["https://youtu.be/a", "https://vimeo.com/1"]);
    const mocks = { exampleLinks: ["https://media.example/files/a.mp4", "https://www.youtube.com/playlist?list=PL1", "https://www.youtube.com/watch?v=vidfetchAll", "https://youtu.be/vidfetch720", "https://youtu.be/third"] };
    expect(canaryLinksFor({}, mocks)).toEqual(["https://www.youtube.com/watch?v=vidfetchAll", "https://youtu.be/vidfetch720"]);
    expect(canaryLinksFor({}, null)).toEqual(DEFAULT_CANARY_LINKS);
  });
});
