export declare const START_ENV: Readonly<Record<string, string>>;
export declare function missingStartEnv(env?: NodeJS.ProcessEnv): Record<string, string>;
export declare function ensureStartEnv(): void;
