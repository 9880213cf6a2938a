/**
 * Test helpers for the staging area: hand-made ZIP archives (to craft hostile ones the `zip` CLI
 * refuses to produce), multipart bodies for inject, a per-test staging prefix, and a leftover check.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

export interface ZipEntrySpec {
  name: string;
  data?: Buffer | string;
  /** 0 stored, 8 deflated (default 8 for files). */
  method?: 0 | 8;
  /** Unix mode (type + permission bits), stored in the upper 16 bits of the external attributes. */
  unixMode?: number;
  /** Overrides for lying headers. */
  declaredSize?: number;
  crc?: number;
  /** A different name in the local header than in the central directory. */
  localName?: string;
  /** Only a local header: the central directory does not know this entry. */
  localOnly?: boolean;
  /** Sizes and CRC after the data (flag bit 3), as streaming writers do. */
  dataDescriptor?: boolean;
  /** The name's bytes as stored (e.g. GBK), instead of `name` in UTF-8; `name` still says if it is a directory. */
  rawName?: Buffer;
  /** Flag bit 11, "the name is UTF-8" (default true). */
  utf8Flag?: boolean;
  /** Extra field bytes, in both the local header and the central directory. */
  extra?: Buffer;
}

/** An Info-ZIP Unicode Path extra field (0x7075): version 1, CRC-32 of `forRaw`, the UTF-8 name. */
export function unicodePathField(name: string, forRaw: Buffer, crc = zlib.crc32(forRaw)): Buffer {
  const utf8 = Buffer.from(name, 'utf8');
  const field = Buffer.alloc(4 + 5 + utf8.length);
  field.writeUInt16LE(0x7075, 0);
  field.writeUInt16LE(5 + utf8.length, 2);
  field.writeUInt8(1, 4);
  field.writeUInt32LE(crc >>> 0, 5);
  utf8.copy(field, 9);
  return field;
}

/** Builds a ZIP archive in memory: local headers, data, central directory, end record. */
export function buildZip(entries: ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = e.rawName ?? Buffer.from(e.name, 'utf8');
    const extra = e.extra ?? Buffer.alloc(0);
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? '');
    const isDir = e.name.endsWith('/');
    const method = isDir ? 0 : (e.method ?? 8);
    const payload = method === 8 ? zlib.deflateRawSync(data) : data;
    const crc = e.crc ?? zlib.crc32(data);
    const size = e.declaredSize ?? data.length;
    const localName = e.localName === undefined ? name : Buffer.from(e.localName, 'utf8');
    const flags = (e.utf8Flag === false ? 0 : 0x800) | (e.dataDescriptor ? 0x8 : 0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    if (!e.dataDescriptor) {
      local.writeUInt32LE(crc >>> 0, 14);
      local.writeUInt32LE(payload.length, 18);
      local.writeUInt32LE(size, 22);
    }
    local.writeUInt16LE(localName.length, 26);
    local.writeUInt16LE(extra.length, 28);
    const descriptor = Buffer.alloc(e.dataDescriptor ? 16 : 0);
    if (e.dataDescriptor) {
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc >>> 0, 4);
      descriptor.writeUInt32LE(payload.length, 8);
      descriptor.writeUInt32LE(size, 12);
    }
    locals.push(local, localName, extra, payload, descriptor);
    const localLength = local.length + localName.length + extra.length + payload.length + descriptor.length;
    if (e.localOnly) {
      offset += localLength;
      continue;
    }

    const mode = e.unixMode ?? (isDir ? 0o040755 : 0o100644);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(payload.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE(((mode << 16) | (isDir ? 0x10 : 0)) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name, extra);
    offset += localLength;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const listed = entries.filter((e) => !e.localOnly).length;
  end.writeUInt16LE(listed, 8);
  end.writeUInt16LE(listed, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A multipart/form-data body with one file part (and optional extra text fields). */
export function multipart(
  filename: string,
  content: Buffer,
  opts: { field?: string; fields?: Record<string, string> } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----staging${crypto.randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(opts.fields ?? {})) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${opts.field ?? 'file'}"; filename="${filename}"\r\n` +
        'Content-Type: application/zip\r\n\r\n',
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A unique staging prefix under the system temp dir, so parallel tests never see each other. */
export function uniquePrefix(): string {
  return path.join(os.tmpdir(), `svc_upload_t${crypto.randomBytes(4).toString('hex')}_`);
}

/** Everything in the prefix's parent that belongs to this prefix (directories and scratch files). */
export function prefixLeftovers(prefix: string): string[] {
  const dir = path.dirname(prefix);
  const stem = path.basename(prefix);
  return fs.readdirSync(dir).filter((n) => n.startsWith(stem) || n.startsWith(`.${stem}`));
}

export function removePrefixLeftovers(prefix: string): void {
  for (const n of prefixLeftovers(prefix)) fs.rmSync(path.join(path.dirname(prefix), n), { recursive: true, force: true });
}

export function hasZipCli(): boolean {
  try {
    execFileSync('zip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Zips the contents of `dir` with the system `zip` (symlinks stored as links with -y). */
export function zipDir(dir: string, out: string, extra: string[] = []): Buffer {
  execFileSync('zip', ['-q', '-r', ...extra, out, '.'], { cwd: dir });
  return fs.readFileSync(out);
}
