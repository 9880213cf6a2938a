/** Sizes, durations and times as the console prints them, in English and Simplified Chinese. */
import { describe, expect, it } from 'vitest';
import { formatBytes, formatDateTime, formatDuration, formatRate, formatRelative, formatShanghai } from '../../src/i18n/format';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1,023 B'],
    [1024, '1.0 KiB'],
    [1536, '1.5 KiB'],
    [5.5 * 1024 ** 2, '5.5 MiB'],
    [150 * 1024 ** 2, '150 MiB'],
    [3 * 1024 ** 4, '3.0 TiB'],
    [2 * 1024 ** 5, '2,048 TiB'],
  ])('%d bytes is %s', (bytes, text) => {
    expect(formatBytes(bytes, 'en')).toBe(text);
  });

  it('carries to the next unit instead of printing 1,024 of a unit', () => {
    expect(formatBytes(1024 ** 2 - 1, 'en')).toBe('1.0 MiB');
    expect(formatBytes(1024 ** 3 - 100, 'en')).toBe('1.0 GiB');
  });

  it('shows a dash for what is no size', () => {
    expect(formatBytes(-1, 'en')).toBe('—');
    expect(formatBytes(Number.NaN, 'en')).toBe('—');
  });

  it('uses the language’s number format, and rates per second', () => {
    expect(formatBytes(1.5 * 1024 ** 2, 'de')).toBe('1,5 MiB');
    expect(formatBytes(1.5 * 1024 ** 2, 'zh-CN')).toBe('1.5 MiB');
    expect(formatRate(2048, 'en')).toBe('2.0 KiB/s');
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0ms'],
    [850, '850ms'],
    [3400, '3.4s'],
    [12_000, '12s'],
    [72_000, '1m 12s'],
    [3_720_000, '1h 2m'],
    [26 * HOUR + 5 * MIN, '26h 5m'],
  ])('%d ms is %s', (ms, text) => {
    expect(formatDuration(ms, 'en')).toBe(text);
    expect(formatDuration(ms, 'zh-CN')).toBe(text);
  });

  it('shows a dash for a negative or unknown duration', () => {
    expect(formatDuration(-5, 'en')).toBe('—');
    expect(formatDuration(Number.POSITIVE_INFINITY, 'en')).toBe('—');
  });
});

describe('formatRelative', () => {
  it.each([
    [0, 'now', '现在'],
    [30_000, '30 sec. ago', '30秒前'],
    [59_600, '59 sec. ago', '59秒前'],
    [3 * MIN, '3 min. ago', '3分钟前'],
    [2 * HOUR, '2 hr. ago', '2小时前'],
    [DAY, 'yesterday', '昨天'],
    [3 * DAY, '3 days ago', '3天前'],
    [-5 * MIN, 'in 5 min.', '5分钟后'],
  ])('%d ms ago: %s / %s', (ms, en, zh) => {
    expect(formatRelative(ago(ms), 'en', NOW)).toBe(en);
    expect(formatRelative(ago(ms), 'zh-CN', NOW)).toBe(zh);
  });

  it('accepts dates and epoch milliseconds, and shows a dash for garbage', () => {
    expect(formatRelative(new Date(NOW - 2 * HOUR), 'en', NOW)).toBe('2 hr. ago');
    expect(formatRelative(NOW - 3 * MIN, 'en', NOW)).toBe('3 min. ago');
    expect(formatRelative('not a date', 'en', NOW)).toBe('—');
  });
});

describe('exact times', () => {
  // 16:30 UTC is already the next day, half past midnight, in Shanghai (UTC+8, no daylight saving).
  const T = '2026-11-25T16:30:05Z';

  it('shows Asia/Shanghai time whatever the browser’s zone', () => {
    expect(formatShanghai(T, 'en')).toBe('Nov 26, 2026, 12:30:05 AM');
    expect(formatShanghai(T, 'zh-CN')).toBe('2026年11月26日 00:30:05');
  });

  it('formats in the zone it is given', () => {
    expect(formatDateTime(T, 'en', 'UTC')).toBe('Nov 25, 2026, 4:30:05 PM');
    expect(formatDateTime(T, 'zh-CN', 'UTC')).toBe('2026年11月25日 16:30:05');
    expect(formatDateTime('nope', 'en')).toBe('—');
  });
});
