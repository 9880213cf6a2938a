/** A request's logger is made only when it logs, and logs exactly as pino's own child would. */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLoggerFactory, logOptions } from '../../src/http/log-options.js';

function parentLogger(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const parent = pino(logOptions(level), { write: (s: string) => lines.push(JSON.parse(s)) });
  let made = 0;
  const child = parent.child;
  // Counts children made (children inherit this property, so it must call pino's on `this`).
  parent.child = function (this: pino.Logger, b: pino.Bindings, o?: pino.ChildLoggerOptions) {
    made++;
    return Reflect.apply(child, this, [b, o]) as pino.Logger;
  } as unknown as typeof parent.child;
  return { parent, lines, made: () => made };
}

describe('lazy request logger', () => {
  it('makes no child for lines below its level, and a real one (bindings, redaction) for the first line above', () => {
    const p = parentLogger('info');
    const log = lazyChildLoggerFactory.call(null, p.parent, { reqId: 'req-1' }, {});
    log.debug('successful request');
    log.trace('detail');
    expect(p.made()).toBe(0);
    expect(p.lines).toEqual([]);
    log.info({ body: { password: 'hunter2' } }, 'refused');
    log.error('and again');
    expect(p.made()).toBe(1);
    expect(p.lines).toHaveLength(2);
    expect(p.lines[0]).toMatchObject({ level: 30, reqId: 'req-1', msg: 'refused', body: { password: '[redacted]' } });
    expect(p.lines[1]).toMatchObject({ level: 50, reqId: 'req-1', msg: 'and again' });
  });

  it('answers isLevelEnabled as pino\'s child would, without making the child', () => {
    for (const [parentLevel, own] of [['info', undefined], ['debug', 'warn'], ['warn', 'debug']] as const) {
      const p = parentLogger(parentLevel);
      const real = p.parent.child({}, own ? { level: own } : {});
      const log = lazyChildLoggerFactory.call(null, p.parent, { reqId: 'req-3' }, own ? { level: own } : {}) as unknown as pino.Logger;
      const made = p.made();
      for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'no-such-level']) {
        expect(log.isLevelEnabled(level), `${parentLevel}/${own} ${level}`).toBe(real.isLevelEnabled(level));
      }
      expect(p.made()).toBe(made);
    }
  });

  it("honours a route's own level (the heartbeat logs only warnings)", () => {
    const p = parentLogger('debug');
    const log = lazyChildLoggerFactory.call(null, p.parent, { reqId: 'req-2' }, { level: 'warn' });
    log.info('heartbeat accepted');
    expect(p.lines).toEqual([]);
    log.warn('cache unavailable');
    expect(p.lines).toEqual([expect.objectContaining({ level: 40, reqId: 'req-2', msg: 'cache unavailable' })]);
    expect(log.level).toBe('warn');
    log.child({ step: 1 }).error('nested');
    expect(p.lines[1]).toMatchObject({ level: 50, reqId: 'req-2', step: 1, msg: 'nested' });
  });
});
