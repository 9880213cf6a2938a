/** The files page's path rules: normalising, breadcrumbs, hidden files, names, the diff pairing, ls dates. */
import type { BrowseEntry } from '@server/modules/remote/remote.schemas';
import { describe, expect, it } from 'vitest';
import {
  crumbsOf, diffTarget, formatModified, joinPath, normalizeDir, parentOf, sizeOf, validName, visibleEntries,
} from '../../../src/pages/remote-files/remote-paths';

const e = (name: string, is_dir = false): BrowseEntry => ({ name, is_dir, size: '1', perms: is_dir ? 'drwxr-xr-x' : '-rw-r--r--', owner: 'u', modified: 'Nov 26 10:00' });

describe('remote paths', () => {
  it('normalises, joins and climbs', () => {
    expect(normalizeDir('')).toBe('/');
    expect(normalizeDir(null)).toBe('/');
    expect(normalizeDir('//srv//app/')).toBe('/srv/app');
    expect(joinPath('/', 'etc')).toBe('/etc');
    expect(joinPath('/srv/', 'a b')).toBe('/srv/a b');
    expect(parentOf('/srv/app')).toBe('/srv');
    expect(parentOf('/srv')).toBe('/');
    expect(parentOf('/')).toBe('/');
  });

  it('breadcrumbs from the root down', () => {
    expect(crumbsOf('/')).toEqual([{ name: '/', path: '/' }]);
    expect(crumbsOf('/srv/app/')).toEqual([
      { name: '/', path: '/' },
      { name: 'srv', path: '/srv' },
      { name: 'app', path: '/srv/app' },
    ]);
  });

  it('directories first, hidden names only when asked', () => {
    const list = [e('b.txt'), e('.cache', true), e('a', true), e('.env')];
    expect(visibleEntries(list, false).map((x) => x.name)).toEqual(['a', 'b.txt']);
    expect(visibleEntries(list, true).map((x) => x.name)).toEqual(['.cache', 'a', 'b.txt', '.env']);
  });

  it('accepts one path segment as a name', () => {
    expect(validName('new.txt')).toBe(true);
    expect(validName('  ')).toBe(false);
    expect(validName('..')).toBe(false);
    expect(validName('a/b')).toBe(false);
  });

  it('pairs a file with staging by its path under the target, else by its name', () => {
    expect(diffTarget('/srv/app/conf/app.conf', '/srv/app')).toEqual({ target_path: '/srv/app', relative_path: 'conf/app.conf' });
    expect(diffTarget('/srv/app/conf/app.conf', '/srv/app/')).toEqual({ target_path: '/srv/app', relative_path: 'conf/app.conf' });
    expect(diffTarget('/etc/hosts', '/srv/app')).toEqual({ target_path: '/etc', relative_path: 'hosts' });
    expect(diffTarget('/srv/application/x', '/srv/app')).toEqual({ target_path: '/srv/application', relative_path: 'x' });
    expect(diffTarget('/x', null)).toEqual({ target_path: '/', relative_path: 'x' });
  });

  it('sizes and ls dates in the console language, unknown forms unchanged', () => {
    expect(sizeOf('4096')).toBe(4096);
    expect(sizeOf('?')).toBeNull();
    expect(formatModified('Nov 26 10:05', 'en')).toBe('Nov 26, 10:05');
    expect(formatModified('Mar 3 2024', 'en')).toBe('Mar 3, 2024');
    expect(formatModified('Nov 26 10:05', 'zh-CN')).toMatch(/11月26日.*10:05/);
    expect(formatModified('2024-03-03', 'en')).toBe('2024-03-03');
  });
});
