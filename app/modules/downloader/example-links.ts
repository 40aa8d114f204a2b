/**
 * The example-link row under the form: one link of each accepted form (watch page, short link,
 * Shorts). With MOCKS=true the built-in mock platform answers instead of the real hosts, and it
 * knows only its own sample ids, so the row shows those (the same real-looking links).
 */
export interface ExampleLink {
  label: string;
  url: string;
}

export const EXAMPLE_LINKS: ExampleLink[] = [
  { label: "Watch link", url: "https://www.youtube.com/watch?v=jNQXAC9IVRw" },
  { label: "Short link", url: "https://youtu.be/dQw4w9WgXcQ" },
  { label: "Shorts link", url: "https://www.youtube.com/shorts/aqz-KE-bpKQ" },
];

/** The mock platform's sample videos (tests/mocks/platform.ts) in the same three link forms, plus its HLS stream. */
export const MOCK_EXAMPLE_LINKS: ExampleLink[] = [
  { label: "Watch link", url: "https://www.youtube.com/watch?v=vidfetchAll" },
  { label: "Short link", url: "https://youtu.be/vidfetch720" },
  { label: "Shorts link", url: "https://www.youtube.com/shorts/vidfetchCap" },
  { label: "HLS stream", url: "https://media.example.test/hls/master.m3u8" },
];

export const SHORTS_EXAMPLE_LINKS: ExampleLink[] = [{ label: "Shorts link", url: "https://www.youtube.com/shorts/aqz-KE-bpKQ" }];
export const MOCK_SHORTS_EXAMPLE_LINKS: ExampleLink[] = [{ label: "Shorts link", url: "https://www.youtube.com/shorts/vidfetchCap" }];

export function exampleLinks(page: "home" | "shorts", mocks: boolean): ExampleLink[] {
  if (page === "shorts") return mocks ? MOCK_SHORTS_EXAMPLE_LINKS : SHORTS_EXAMPLE_LINKS;
  return mocks ? MOCK_EXAMPLE_LINKS : EXAMPLE_LINKS;
}
