/**
 * The zip-extract benchmark's source tree: `tsx bench/support/zip-tree.ts DIR [FILES]` writes
 * FILES files (default 5,000; half random, half text) into 100 directories, with sizes that vary
 * so both tiny and multi-MB entries occur. Run as its own process by the scenario, so the
 * generated buffers never sit in the measured process's heap.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const RANDOM_BYTES_TOTAL = 280 * 1024 * 1024;
const TEXT_BYTES_TOTAL = 90 * 1024 * 1024;
const WORDS = 'server fleet push staging rsync archive deploy config release module route schema'.split(' ');

function makeText(size: number, seed: number): Buffer {
  const parts: string[] = [];
  let n = 0;
  let i = seed;
  while (n < size) {
    const w = `${WORDS[(i * 7 + (i >> 3)) % WORDS.length]}${i % 13 === 0 ? '\n' : ' '}${i % 29 === 0 ? i : ''}`;
    parts.push(w);
    n += w.length;
    i++;
  }
  return Buffer.from(parts.join('')).subarray(0, size);
}

function buildTree(root: string, files: number): void {
  const half = files / 2;
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, `dir${i % 20}`, `sub${i % 5}`);
    fs.mkdirSync(dir, { recursive: true });
    const weight = 0.1 + 1.8 * (((i * 7919) % 1000) / 1000);
    const random = i % 2 === 0;
    const size = Math.floor(((random ? RANDOM_BYTES_TOTAL : TEXT_BYTES_TOTAL) / half) * weight);
    const data = random ? crypto.randomBytes(size) : makeText(size, i);
    fs.writeFileSync(path.join(dir, `file${i}.${random ? 'bin' : 'txt'}`), data);
  }
}

const [root, files = '5000'] = process.argv.slice(2);
if (!root) {
  process.stderr.write('usage: tsx bench/support/zip-tree.ts DIR [FILES]\n');
  process.exit(2);
}
buildTree(root, Number(files));
