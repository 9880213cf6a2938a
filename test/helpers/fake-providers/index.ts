/**
 * Loopback fakes of every notification provider, for channel tests, delivery tests and benches.
 * Each `startFake<Provider>(options)` starts one on 127.0.0.1 and returns a `FakeProvider` with
 * `url`, `config` (a valid channel config pointing at it), `received`, `problems`,
 * `failNext(n, kind)`, `delayMs` and `close()`; see fake-provider.ts. Channels must be built with
 * private targets allowed to reach them.
 */
export * from './china.js';
export * from './fake-provider.js';
export * from './international.js';
export * from './smtp.js';
