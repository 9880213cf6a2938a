/**
 * A throwaway Ed25519 key pair in OpenSSH form from ssh2's generator, which about one time in
 * 200 writes a malformed key (a 31-byte public key: a leading zero byte dropped) that ssh2 itself
 * cannot parse. A test that means "a valid key the server does not know" draws again until both
 * halves parse, so it never fails on a broken key instead.
 */
import { utils } from 'ssh2';

export function ed25519KeyPair(): { private: string; public: string } {
  for (;;) {
    const pair = utils.generateKeyPairSync('ed25519');
    if (!(utils.parseKey(pair.private) instanceof Error) && !(utils.parseKey(pair.public) instanceof Error)) return pair;
  }
}
