/** Articles here are signed by the site's editors, never by an invented person (decision 037). */
export const EDITORIAL_BYLINE = "The Editorial Team";

/** The schema.org author of an article: the editors are an organisation, anyone else a person. */
export function authorSchema(author: string, siteName: string): { "@type": "Organization" | "Person"; name: string } {
  return author === EDITORIAL_BYLINE ? { "@type": "Organization", name: `${siteName} editorial team` } : { "@type": "Person", name: author };
}
