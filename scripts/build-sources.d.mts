export declare const SITE_SOURCES: readonly string[];
export declare function hostSources(root: string): string[];
