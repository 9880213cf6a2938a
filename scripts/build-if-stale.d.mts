/** Types of build-if-stale.mjs for the TypeScript callers (the e2e set-up). */
export declare function buildIfStale(root?: string, only?: 'service' | 'console'): string[];
