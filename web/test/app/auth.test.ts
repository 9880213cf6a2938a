/** The login page's `next`: only a path of this console is followed; everything else is `/`. */
import { describe, expect, it } from 'vitest';
import { safeNext } from '../../src/app/auth';

describe('safeNext', () => {
  it.each([
    ['/servers', '/servers'],
    ['/servers/12/files?path=%2Fetc%2Fnginx&sort=name', '/servers/12/files?path=%2Fetc%2Fnginx&sort=name'],
    ['/history?kind=push&page=3#row-7', '/history?kind=push&page=3#row-7'],
    ['/scripts/run?args=a%20b', '/scripts/run?args=a%20b'],
    ['/files?path=/var//log', '/files?path=/var//log'],
  ])('follows the console path %s', (next, expected) => {
    expect(safeNext(next)).toBe(expected);
  });

  it.each([
    [null],
    [''],
    ['servers'],
    ['/\\host'],
    ['/\\\\host'],
    ['/%5Chost'],
    ['/%5chost'],
    ['/%255Chost'],
    ['%2F%5Chost'],
    ['//host'],
    ['///host'],
    ['/%2F%2Fhost'],
    ['/%2Fhost'],
    ['/%252F%252Fhost'],
    ['%2F%2Fhost'],
    ['https://x'],
    ['http://evil.example/servers'],
    ['javascript:alert(1)'],
    ['/\tjavascript:alert(1)'],
    ['/\t/host'],
    ['/%09/host'],
    ['/%0A/host'],
    ['/servers?q=%5C'],
    ['/100%'],
    ['/%25252525252F%25252525252Fhost'],
    ['/login'],
    ['/login?next=%2Fservers'],
    [`/${'a'.repeat(3000)}`],
  ])('falls back to / for %j', (next) => {
    expect(safeNext(next)).toBe('/');
  });
});
