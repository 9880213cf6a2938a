import { describe, expect, it } from 'vitest';
import { decodeBase64Loose, extractHosts, hostOfLink } from '../../../src/modules/allowlist/subscription-parser.js';
import { validateEntries, normalizeEntry } from '../../../src/modules/allowlist/allowlist-entries.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const b64url = (s: string) => b64(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

const vmess = (add: string) => `vmess://${b64(JSON.stringify({ v: '2', ps: 'node', add, port: '443', id: 'uuid', net: 'ws' }))}`;

describe('share link hosts', () => {
  it('SS SIP002 and legacy', () => {
    expect(hostOfLink(`ss://${b64url('aes-256-gcm:pass')}@ss1.example.com:8388#Tag%20One`)).toBe('ss1.example.com');
    expect(hostOfLink(`ss://${b64url('chacha20-ietf-poly1305:p')}@203.0.113.7:443/?plugin=obfs-local%3Bobfs%3Dhttp#x`)).toBe('203.0.113.7');
    expect(hostOfLink(`ss://${b64('aes-128-gcm:secret@legacy.example.org:8388')}#legacy`)).toBe('legacy.example.org');
    expect(hostOfLink(`ss://${b64url('aes-128-gcm:secret@198.51.100.2:8388')}`)).toBe('198.51.100.2');
    expect(hostOfLink(`ss://${b64url('m:p')}@[2001:db8::5]:8388#v6`)).toBe('2001:db8::5');
  });

  it('VMess base64 JSON (add) and its URI form', () => {
    expect(hostOfLink(vmess('vm.example.net'))).toBe('vm.example.net');
    expect(hostOfLink(`vmess://${b64url(JSON.stringify({ add: '192.0.2.44', port: 1 }))}`)).toBe('192.0.2.44');
    expect(hostOfLink('vmess://uuid@vm2.example.net:443?encryption=auto#n')).toBe('vm2.example.net');
    expect(hostOfLink(`vmess://${b64('not json')}`)).toBeNull();
  });

  it('VLESS, Trojan, Hysteria2 and hy2', () => {
    expect(hostOfLink('vless://0b1c-uuid@vless.example.com:443?type=ws&security=tls&path=%2Fws#VL')).toBe('vless.example.com');
    expect(hostOfLink('trojan://p%40ss@trojan.example.com:443?sni=x.example.com#T')).toBe('trojan.example.com');
    expect(hostOfLink('hysteria2://auth@hy.example.com:8443/?sni=hy.example.com&insecure=1#H')).toBe('hy.example.com');
    expect(hostOfLink('hy2://auth@203.0.113.9:443?obfs=salamander#H2')).toBe('203.0.113.9');
    expect(hostOfLink('hysteria2://noauth.example.com:443')).toBe('noauth.example.com');
    expect(hostOfLink('TROJAN://pw@Upper.Example.COM:443')).toBe('upper.example.com');
  });

  it('ignores other schemes and hosts that are neither addresses nor domains', () => {
    expect(hostOfLink('http://example.com/')).toBeNull();
    expect(hostOfLink('vless://uuid@not_a_host:443')).toBeNull();
    expect(hostOfLink('trojan://pw@localhost:443')).toBeNull();
  });
});

describe('subscription bodies', () => {
  const links = [
    `ss://${b64url('aes-256-gcm:pass')}@a.example.com:8388#A`,
    vmess('b.example.com'),
    'vless://id@c.example.com:443#C',
    'trojan://pw@a.example.com:443#dup',
    'hy2://x@198.51.100.10:443#D',
    'hysteria2://x@e.example.com:443#E',
  ];
  const expected = ['a.example.com', 'b.example.com', 'c.example.com', '198.51.100.10', 'e.example.com'];

  it('plain text, deduplicated in order', () => {
    expect(extractHosts(links.join('\n'))).toEqual(expected);
    expect(extractHosts(`\r\n  ${links.join('\r\n')}\r\n# comment\n`)).toEqual(expected);
  });

  it('base64: standard, URL-safe, with and without padding, wrapped', () => {
    const text = links.join('\n');
    expect(extractHosts(b64(text))).toEqual(expected);
    expect(extractHosts(b64url(text))).toEqual(expected);
    expect(extractHosts(b64(text).replace(/=+$/, ''))).toEqual(expected);
    expect(extractHosts(b64(text).replace(/(.{76})/g, '$1\n'))).toEqual(expected);
    for (const n of [1, 2, 3]) {
      const body = links.slice(0, n).join('\n');
      expect(extractHosts(b64url(body)).length).toBeGreaterThan(0);
    }
  });

  it('nothing usable gives no hosts', () => {
    expect(extractHosts('')).toEqual([]);
    expect(extractHosts('<html>hello</html>')).toEqual([]);
    expect(extractHosts(b64('just text'))).toEqual([]);
    expect(decodeBase64Loose('%%%')).toBeNull();
  });
});

describe('allowlist entries', () => {
  it('accepts IPv4, IPv4/bits and domains with an alphabetic TLD', () => {
    expect(validateEntries([' 1.2.3.4 ', '', '10.0.0.0/8', '0.0.0.0/0', 'Example.COM', 'a.b-c.io', '1.2.3.4'])).toEqual([
      '1.2.3.4',
      '10.0.0.0/8',
      '0.0.0.0/0',
      'example.com',
      'a.b-c.io',
    ]);
  });

  it('refuses anything else with a 400 naming the entry', () => {
    for (const bad of ['256.1.1.1', '1.2.3', '1.2.3.4/33', '01.2.3.4', 'localhost', 'example.c0m', 'exa mple.com', '::1', '-a.com', 'a..com', '1.2.3.4/']) {
      expect(normalizeEntry(bad), bad).toBeNull();
      expect(() => validateEntries(['1.1.1.1', bad])).toThrow(bad);
      try {
        validateEntries([bad]);
      } catch (err) {
        expect((err as { statusCode: number }).statusCode).toBe(400);
      }
    }
  });
});
