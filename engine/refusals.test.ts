import { describe, expect, it } from "vitest";
import { planRequired } from "./refusals.ts";

describe("planRequired", () => {
  it("names the plans of the table that hold the right, and asks subscribers to change plan", () => {
    expect(planRequired({ kind: "anonymous" }, "bulkDownloads")).toMatchObject({
      code: "plan.required",
      status: 403,
      message: "Bulk downloads come with the Ultimate plan. Subscribe to use them.",
    });
    expect(planRequired({ kind: "free" }, "scheduledDownloads").message).toBe("Scheduled downloads come with the Pro and Ultimate plans. Subscribe to use them.");
    expect(planRequired({ kind: "premium", plan: "basic" }, "bulkDownloads").message).toBe("Bulk downloads come with the Ultimate plan. Change your plan to use them.");
  });
});
