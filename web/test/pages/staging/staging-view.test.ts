/** The staging page's logic: text or binary previews, the trail of folders, links, age filtering. */
import { describe, expect, it } from 'vitest';
import { browseLink, crumbs, olderThan, previewContent, previewShown, pushLink, rootOf } from '../../../src/pages/staging/staging-view';

const b64 = (bytes: Uint8Array | string) => btoa(String.fromCharCode(...(typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes)));
const preview = (content: Uint8Array | string, o: { hint?: 'text' | 'binary'; truncated?: boolean; size?: number } = {}) => ({
  name: 'f',
  size: o.size ?? 10,
  content_base64: b64(content),
  truncated: o.truncated ?? false,
  encoding_hint: o.hint ?? ('text' as const),
});
const dir = (name: string, at: string, zipAt?: string) => ({
  path: `/tmp/${name}`, name, modified: at, entries: 1, zip: zipAt ? { filename: `${name}.zip`, size: 9, uploaded_at: zipAt } : null,
});

describe('staging view logic', () => {
  it('shows UTF-8 text as text, with multi-byte characters intact', () => {
    expect(previewContent(preview('héllo 世界\n'))).toEqual({ kind: 'text', text: 'héllo 世界\n' });
  });

  it('drops a character cut by the 4096-byte window instead of showing a replacement mark', () => {
    const bytes = new TextEncoder().encode('ab世');
    expect(previewContent(preview(bytes.slice(0, 4), { truncated: true }))).toEqual({ kind: 'text', text: 'ab' });
  });

  it('calls binary what the service calls binary, and UTF-8 with NUL bytes too', () => {
    expect(previewContent(preview(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { hint: 'binary' }))).toEqual({ kind: 'binary' });
    expect(previewContent(preview(new Uint8Array([0x41, 0x00, 0x42]), { hint: 'text' }))).toEqual({ kind: 'binary' });
  });

  it('counts the bytes a preview shows from its base64', () => {
    for (const n of [0, 1, 2, 3, 4, 4096]) expect(previewShown(preview(new Uint8Array(n)))).toBe(n);
  });

  it('builds the folder trail from the staging directory down, never above it', () => {
    expect(crumbs('/tmp/svc_upload_ab/conf/nginx', '/tmp/svc_upload_ab', 'site.zip')).toEqual([
      { label: 'site.zip', path: '/tmp/svc_upload_ab' },
      { label: 'conf', path: '/tmp/svc_upload_ab/conf' },
      { label: 'nginx', path: '/tmp/svc_upload_ab/conf/nginx' },
    ]);
    expect(crumbs('/tmp/svc_upload_abc', '/tmp/svc_upload_ab', 'x')).toEqual([{ label: 'x', path: '/tmp/svc_upload_abc' }]);
    const dirs = [dir('svc_upload_ab', '2026-11-01T00:00:00Z')];
    expect(rootOf('/tmp/svc_upload_ab/x', dirs)?.name).toBe('svc_upload_ab');
    expect(rootOf('/tmp/svc_upload_abc', dirs)).toBeNull();
  });

  it('links into the push flow on its servers step with the source chosen, and to a browsed folder', () => {
    const url = new URL(pushLink('/tmp/svc_upload_ab/a b'), 'http://x');
    expect(url.pathname).toBe('/push');
    expect(Object.fromEntries(url.searchParams)).toEqual({ step: 'servers', source: '/tmp/svc_upload_ab/a b' });
    expect(new URL(browseLink('/tmp/svc_upload_ab/&x'), 'http://x').searchParams.get('path')).toBe('/tmp/svc_upload_ab/&x');
  });

  it('ages a directory by its ZIP arrival, else its modification time', () => {
    const now = Date.parse('2026-11-26T00:00:00Z');
    const dirs = [
      dir('old', '2026-11-01T00:00:00Z'),
      dir('new', '2026-11-25T00:00:00Z'),
      dir('zip-old', '2026-11-25T00:00:00Z', '2026-11-02T00:00:00Z'),
    ];
    expect(olderThan(dirs, 7, now).map((d) => d.name)).toEqual(['old', 'zip-old']);
    expect(olderThan(dirs, 0, now)).toHaveLength(3);
  });
});
