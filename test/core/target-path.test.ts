/** Remote directories compare in one spelling; any nesting is an overlap. */
import { describe, expect, it } from 'vitest';
import { normaliseTargetPath, targetsOverlap } from '../../src/core/target-path.js';

describe('target paths', () => {
  it('normalises slashes, dots and trailing slashes; relative paths stay relative', () => {
    expect(['/srv/app', '/srv/app/', '/srv//app', '/srv/./app', '/srv/x/../app', ' /srv/app// '].map(normaliseTargetPath)).toEqual(Array(6).fill('/srv/app'));
    expect(normaliseTargetPath('/')).toBe('/');
    expect(normaliseTargetPath('//')).toBe('/');
    expect(normaliseTargetPath('data/')).toBe('data');
    expect(normaliseTargetPath('./data')).toBe('data');
  });

  it('overlaps when equal or nested either way, never by a shared name prefix', () => {
    expect(targetsOverlap('/srv/app', '/srv/app')).toBe(true);
    expect(targetsOverlap('/srv', '/srv/app')).toBe(true);
    expect(targetsOverlap('/srv/app/deep', '/srv')).toBe(true);
    expect(targetsOverlap('/', '/srv')).toBe(true);
    expect(targetsOverlap('/srv/app', '/srv/app2')).toBe(false);
    expect(targetsOverlap('/srv/a', '/srv/b')).toBe(false);
    expect(targetsOverlap('data', 'data/x')).toBe(true);
    expect(targetsOverlap('.', 'data')).toBe(true);
    expect(targetsOverlap('.', '/srv')).toBe(false);
    expect(targetsOverlap('data', '/data')).toBe(false);
  });
});
