/**
 * What a create or update body does to stored credentials: the inline secret or the preset of a
 * kind, whichever was picked last (picking one clears the other); "" leaves a secret unchanged,
 * null removes it; both at once is a 400.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCipher } from '../../../src/core/crypto.js';
import { credentialPatch } from '../../../src/modules/servers/servers.input.js';
import { generateKey } from '../ssh-key-presets/keygen.js';

const cipher = createCipher(crypto.randomBytes(32));
const key = generateKey('ed25519').privateKey;
const ENC = expect.stringMatching(/^v1:/);

describe('credentialPatch', () => {
  it.each([
    ['nothing given', {}, {}],
    ['an inline password', { password: 'pw' }, { password_enc: ENC, password_preset_id: null }],
    ['"" password: unchanged', { password: '' }, {}],
    ['null password: removed', { password: null }, { password_enc: null }],
    ['a password preset clears the inline password', { password_preset_id: 4 }, { password_preset_id: 4, password_enc: null }],
    ['null password preset', { password_preset_id: null }, { password_preset_id: null }],
    ['an inline key', { private_key: key }, { private_key_enc: ENC, ssh_key_preset_id: null }],
    ['"" key: unchanged', { private_key: '' }, {}],
    ['null key: removed', { private_key: null }, { private_key_enc: null }],
    ['a key preset clears the inline key', { ssh_key_preset_id: 2 }, { ssh_key_preset_id: 2, private_key_enc: null }],
    ['"" key with a preset: the preset', { private_key: '', ssh_key_preset_id: 2 }, { ssh_key_preset_id: 2, private_key_enc: null }],
  ])('%s', (_label, input, expected) => {
    expect(credentialPatch(input, cipher)).toEqual(expected);
  });

  it.each([
    [{ password: 'pw', password_preset_id: 1 }, 'Give either password or password_preset_id, not both'],
    [{ private_key: key, ssh_key_preset_id: 1 }, 'Give either private_key or ssh_key_preset_id, not both'],
    [{ private_key: 'not a key' }, /^Invalid private key/],
  ])('%j is a 400', (input, message) => {
    expect(() => credentialPatch(input, cipher)).toThrow(expect.objectContaining({ statusCode: 400, message: expect.stringMatching(message) }));
  });

  it('the encrypted password decrypts to what was given', () => {
    expect(cipher.decrypt(credentialPatch({ password: 'hunter2' }, cipher).password_enc!)).toBe('hunter2');
  });
});
