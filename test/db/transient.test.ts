import { describe, expect, it } from 'vitest';
import { isTransientDbError, untilDatabaseAnswers } from '../../src/db/transient.js';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
const log = { info() {}, warn() {}, error() {}, debug() {} } as never;

describe('transient database errors', () => {
  it('are the dropped, refused and restarting connections, never a refusal of the statement', () => {
    for (const e of [coded('57P01'), coded('08006'), coded('ECONNREFUSED'), coded('SQLITE_BUSY'), new Error('Connection terminated unexpectedly')]) {
      expect(isTransientDbError(e), e.message).toBe(true);
    }
    for (const e of [coded('23505'), coded('22003'), coded('42P01'), new Error('syntax error'), 'text']) {
      expect(isTransientDbError(e)).toBe(false);
    }
  });

  it('are waited out until the deadline; other errors are thrown at once', async () => {
    let calls = 0;
    const flaky = async () => {
      if (++calls < 3) throw coded('ECONNREFUSED');
      return 'done';
    };
    expect(await untilDatabaseAnswers(flaky, { deadlineMs: 5_000, log, what: 'test' })).toBe('done');
    expect(calls).toBe(3);
    const hard = async () => {
      calls++;
      throw coded('23505', 'duplicate key');
    };
    calls = 0;
    await expect(untilDatabaseAnswers(hard, { deadlineMs: 5_000, log, what: 'test' })).rejects.toThrow('duplicate key');
    expect(calls).toBe(1);
    const down = async () => {
      throw coded('57P01', 'terminating connection');
    };
    const t0 = Date.now();
    await expect(untilDatabaseAnswers(down, { deadlineMs: 500, log, what: 'test' })).rejects.toThrow('terminating connection');
    expect(Date.now() - t0).toBeLessThan(2_000);
  });
});
