/** extractUpload's own refusals (the endpoint tests in test/modules/staging cover hostile archives). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { extractUpload, type UploadStream } from '../../../src/adapters/zip/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function setup() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-upload-'));
  dirs.push(root);
  const dest = path.join(root, 'dest');
  fs.mkdirSync(dest);
  return {
    dest,
    limits: {
      archivePath: path.join(root, 'upload.zip.part'),
      maxBytes: 1000,
      maxUncompressed: 10_000,
      maxEntries: 10,
      listLimit: 5,
      names: 'auto' as const,
      readError: (err: unknown) => new Error(`read: ${(err as Error).message}`),
      log: { debug() {} },
    },
  };
}

describe('extractUpload', () => {
  it('refuses an empty upload', async () => {
    const { dest, limits } = setup();
    await expect(extractUpload(Readable.from([]), dest, limits)).rejects.toMatchObject({ statusCode: 400, message: 'The uploaded file is empty' });
  });

  it('refuses an upload cut at the size cap, naming the cap', async () => {
    const { dest, limits } = setup();
    const stream: UploadStream = Readable.from([Buffer.from('PK\x03\x04')]);
    stream.truncated = true;
    await expect(extractUpload(stream, dest, limits)).rejects.toMatchObject({ statusCode: 400, message: 'The file exceeds the 1000-byte limit' });
  });

  it('refuses bytes that are not an archive', async () => {
    const { dest, limits } = setup();
    await expect(extractUpload(Readable.from([Buffer.from('not a zip at all')]), dest, limits)).rejects.toMatchObject({ statusCode: 400 });
  });

  it('hands an error of the incoming stream to readError', async () => {
    const { dest, limits } = setup();
    const broken = new Readable({
      read() {
        this.destroy(new Error('socket hang up'));
      },
    });
    await expect(extractUpload(broken, dest, limits)).rejects.toThrow('read: socket hang up');
  });
});
