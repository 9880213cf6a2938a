/** Types of bundle-server.mjs for the TypeScript callers (its test). */
export declare function bundleServer(root?: string): Promise<void>;
