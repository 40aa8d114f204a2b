export * from "./site.ts";
export * from "./blog.ts";
export * from "./account.ts";
export * from "./billing.ts";
export * from "./history.ts";
export * from "./jobs.ts";
export * from "./api-keys.ts";
export * from "./admin.ts";
