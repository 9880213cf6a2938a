/**
 * The import rules of the modular monolith, checked by test/architecture/import-graph.test.ts
 * (and `npx depcruise src`). Layers, from the bottom: core (pure helpers) → db, adapters (the
 * outside world) → platform (audit, events, settings, notifications, leases) and http (request
 * plumbing) → modules (features) → composition (the one root that wires them) → app/server.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Import circles make load order and reasoning fragile.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'composition-root-only-from-entry',
      comment: 'Only src/app.ts and src/server.ts may import the composition root; modules get what they need passed in.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(app|server)\\.ts$|^src/composition/' },
      to: { path: '^src/composition/' },
    },
    {
      name: 'core-is-a-leaf',
      comment: 'src/core holds pure helpers every layer may use; it imports nothing else of the project.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'config-reads-the-environment-only',
      comment: 'src/config validates the environment and prepares the data directory; it knows no feature or service.',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/(modules|platform|http|composition|db|adapters)/' },
    },
    {
      name: 'adapters-are-general',
      comment: 'An adapter talks to the outside world for anyone; it knows no feature, platform service or HTTP route.',
      severity: 'error',
      from: { path: '^src/adapters/' },
      to: { path: '^src/(modules|platform|http|composition|db)/' },
    },
    {
      name: 'db-below-features',
      comment: 'The database layer knows tables and dialects, not features.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/(modules|platform|http|composition|adapters)/' },
    },
    {
      name: 'platform-below-features',
      comment: 'Platform services serve every feature and depend on none.',
      severity: 'error',
      from: { path: '^src/(platform|http)/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'features-meet-at-their-public-face',
      comment: "A feature may use another feature only through its index.ts or its *.schemas.ts, never its internals.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$', '^src/modules/[^/]+/[^/]+\\.schemas\\.ts$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|web|test|bench)/' },
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
