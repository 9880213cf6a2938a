/**
 * The local side of verify: which regular files a staging directory holds, and their SHA-256.
 *
 * Symlinks are not followed or listed (a push in rsync archive mode copies them as links, and
 * following one could read outside staging). The walk is depth-first over sorted names so that
 * the `max_files` cut is the same on every run.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Files below this size are read in one call: far fewer thread-pool round trips than a stream. */
const WHOLE_READ_MAX = 4 * 1024 * 1024;
const STREAM_CHUNK = 1024 * 1024;

/** Relative paths (with `/`) of up to `max` regular files below `root`. Unreadable subdirectories are skipped. */
export async function listFiles(root: string, max: number): Promise<string[]> {
  const out: string[] = [];
  const stack: string[] = [''];
  while (stack.length > 0 && out.length < max) {
    const rel = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(rel ? path.join(root, rel) : root, { withFileTypes: true });
    } catch (err) {
      if (rel === '') throw err;
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) subdirs.push(childRel);
      else if (e.isFile()) {
        out.push(childRel);
        if (out.length >= max) break;
      }
    }
    // Reversed onto the stack, so directories are visited in name order.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
  return out;
}

/**
 * Each thread-pool round trip costs more than hashing a small file, so a file is opened, sized,
 * read in ONE call into `scratch` (one byte more than its size: a short read is the end of file)
 * and closed: four round trips, where FileHandle.readFile adds a second fstat and an EOF read.
 * Over 10,000 files of 20 KiB that is a sixth less CPU time (user + system) for the local side.
 */
async function hashFile(file: string, scratch: { buf: Buffer }): Promise<string | null> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return null;
    const hash = crypto.createHash('sha256');
    if (st.size < WHOLE_READ_MAX) {
      if (scratch.buf.length < st.size + 1) scratch.buf = Buffer.allocUnsafe(Math.max(st.size + 1, 64 * 1024));
      const { bytesRead } = await fh.read(scratch.buf, 0, st.size + 1, 0);
      if (bytesRead <= st.size) {
        return hash.update(scratch.buf.subarray(0, bytesRead)).digest('hex');
      }
      // The file grew since fstat: hash it whole from the start, as a stream.
    }
    for await (const chunk of fh.createReadStream({ start: 0, highWaterMark: STREAM_CHUNK, autoClose: false })) {
      hash.update(chunk as Buffer);
    }
    return hash.digest('hex');
  } catch {
    return null;
  } finally {
    await fh.close().catch(() => {});
  }
}

/**
 * SHA-256 of each listed file, `concurrency` reads in flight. Files that cannot be read (or are
 * no longer regular files) are left out rather than failing the verification.
 */
export async function hashFiles(root: string, rels: readonly string[], concurrency = 8): Promise<Map<string, string>> {
  const hashes: Array<string | null> = new Array(rels.length).fill(null);
  let next = 0;
  const worker = async (): Promise<void> => {
    // One read buffer per worker, reused for every small file it hashes.
    const scratch = { buf: Buffer.alloc(0) };
    while (next < rels.length) {
      const i = next++;
      hashes[i] = await hashFile(path.join(root, rels[i]), scratch);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, rels.length) }, worker));
  const manifest = new Map<string, string>();
  rels.forEach((rel, i) => {
    if (hashes[i] !== null) manifest.set(rel, hashes[i]!);
  });
  return manifest;
}
