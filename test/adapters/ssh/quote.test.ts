import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellJoin, shellQuote } from '../../../src/adapters/ssh/quote.js';

/** What a real POSIX shell makes of the quoted word: the round trip is the only test that matters. */
function throughSh(words: string[]): string[] {
  const out = execFileSync('sh', ['-c', `printf '%s\\0' ${shellJoin(words)}`]);
  return out.toString('utf8').split('\0').slice(0, -1);
}

describe('shellQuote', () => {
  const nasty = [
    '',
    'plain',
    'with space',
    "it's",
    "''",
    '\'; touch /tmp/x #',
    '$(touch /tmp/x)',
    '`touch /tmp/x`',
    '\ntouch /tmp/x',
    '-rf',
    '--',
    'a\\b\\\\c',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-expansion payload, on purpose
    '"double" $HOME ${PATH} !bang *.glob ~tilde',
    'tab\there|pipe&amp;semicolon;<in>out',
    'ünïcödé ☃',
  ];

  it('always single-quotes', () => {
    expect(shellQuote('')).toBe("''");
    expect(shellQuote('abc')).toBe("'abc'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });

  it('round-trips every word through sh unchanged', () => {
    expect(throughSh(nasty)).toEqual(nasty);
  });

  it('refuses NUL bytes', () => {
    expect(() => shellQuote('a\0b')).toThrow(/NUL/);
  });
});
