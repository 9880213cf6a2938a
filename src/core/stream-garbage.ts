/**
 * Prompt collection of the chunks a long transfer leaves behind.
 *
 * Data streamed through the service lands in a new Buffer at every layer (the socket read, the
 * HTTP body, ssh2's packet and cipher), each dead a few milliseconds later. V8 frees a dead
 * Buffer's memory only in a collection, and collects for Buffer memory only once tens of MB of it
 * have built up, then with full mark-compacts: a 200 MB upload over SFTP peaked 45–65 MB over
 * idle and ran some thirty of them. The dead chunks are all young, so a young-generation
 * collection (about 50 µs) frees them; one per 2 MiB moved kept that peak at 5–14 MB over idle
 * and made the upload faster (no mark-compacts in its way).
 *
 * Not more often: an upload keeps up to ~1 MB of chunks in flight, and at one collection per MiB
 * most young chunks were still alive at each, which is what makes V8 start allocating them in
 * the old generation; then one 500 MB upload in five fell back to mark-compacts and ran 40 %
 * slower. At 2 MiB none of six did.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

const MIB = 1024 * 1024;

export type Gc = (options: { type: 'minor' }) => void;

let gc: Gc | null | undefined;

/**
 * V8's `gc`: the global one when node runs with --expose-gc, else the one a new context gets once
 * the flag is set (Node's documented way to reach it at run time); null where neither works, and
 * then transfers run as before.
 */
export function youngGc(): Gc | null {
  if (gc !== undefined) return gc;
  let fn: unknown = (globalThis as { gc?: unknown }).gc;
  try {
    if (typeof fn !== 'function') {
      v8.setFlagsFromString('--expose-gc');
      fn = vm.runInNewContext('gc');
    }
  } catch {
    fn = null;
  }
  gc = typeof fn === 'function' ? (fn as Gc) : null;
  return gc;
}

/**
 * A counter for one transfer: call it with each chunk's size; every `everyBytes` it asks V8 for a
 * young-generation collection. One per transfer, so concurrent transfers each keep their own pace.
 */
export function streamCollector(everyBytes = 2 * MIB, collect: Gc | null = youngGc()): (bytes: number) => void {
  let moved = 0;
  return (bytes) => {
    moved += bytes;
    if (moved < everyBytes || !collect) return;
    moved = 0;
    collect({ type: 'minor' });
  };
}
