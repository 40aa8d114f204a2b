export * from "./site.ts";
export * from "./blog.ts";
