/**
 * The daily wallpaper cache: files `DATA_DIR/wallpapers/<startdate YYYYMMDD>.jpg`, aged by that
 * date (older than 7 days removed, 12 newest kept), served publicly as `/app/wallpapers/<file>.jpg`.
 * An empty cache is filled once from the daily-image archive; concurrent requests share that one
 * fill, and a non-empty cache never causes an outbound call.
 *
 * Because the files are served to anyone, what the archive names is not trusted: an image is
 * fetched only from the archive's own origin (redirects included), through the address guard
 * (public addresses only, DNS pinned), and kept only when its bytes are a JPEG, PNG or WebP.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SafeFetcher } from '../../adapters/http/safe-fetch.js';
import { BadGatewayError } from '../../core/errors.js';
import { imageTypeOf, type ImageType } from '../../core/image-type.js';
import type { Actor } from '../../core/actor.js';
import type { Logger } from '../../core/logger.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { DailyWallpaper, WallpaperList, WallpaperSync } from './wallpapers.schemas.js';

export const WALLPAPER_FILE = /^(\d{4})(\d{2})(\d{2})\.jpg$/;
export const MAX_WALLPAPERS = 12;
export const MAX_AGE_DAYS = 7;
/** How many archive entries a fill takes (the archive's `n=8`). */
const ARCHIVE_ENTRIES = 8;
const DAY_MS = 86_400_000;

export interface WallpaperServiceOptions {
  dir: string;
  sourceUrl: string;
  log: Logger;
  audit: Pick<AuditService, 'record'>;
  /** The guarded fetcher (public addresses only, DNS pinned). */
  fetcher: Pick<SafeFetcher, 'fetchBytes'>;
  now?: () => Date;
  maxImageBytes?: number;
  /** After a failed or empty fill, public requests wait this long before trying the archive again. */
  retryAfterMs?: number;
}

/** The UTC day a cached file stands for, or null when the name is not a valid date file. */
export function fileDay(name: string): number | null {
  const m = WALLPAPER_FILE.exec(name);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  const dt = new Date(t);
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d ? t : null;
}

export function urlOf(file: string): string {
  return `/app/wallpapers/${file}`;
}

export class WallpaperService {
  private readonly now: () => Date;
  private readonly maxImageBytes: number;
  private readonly retryAfterMs: number;
  private inflight: Promise<WallpaperSync> | null = null;
  private lastFailedFill = 0;

  constructor(private readonly o: WallpaperServiceOptions) {
    this.now = o.now ?? (() => new Date());
    this.maxImageBytes = o.maxImageBytes ?? 10 * 1024 * 1024;
    this.retryAfterMs = o.retryAfterMs ?? 15_000;
  }

  /** Prunes, then lists the cached files newest first as URLs. */
  async list(): Promise<string[]> {
    return (await this.prune()).map(urlOf);
  }

  /** GET /daily-wallpapers: the cached list, filling an empty cache once (shared by concurrent callers). */
  async listOrFill(): Promise<WallpaperList> {
    const urls = await this.list();
    if (urls.length > 0 || (this.inflight === null && Date.now() - this.lastFailedFill < this.retryAfterMs)) {
      return { urls, count: urls.length };
    }
    try {
      const r = await this.sync();
      if (r.count === 0) this.lastFailedFill = Date.now();
      return { urls: r.urls, count: r.count };
    } catch (err) {
      this.lastFailedFill = Date.now();
      this.o.log.warn({ err }, 'wallpaper cache fill failed');
      const after = await this.list();
      return { urls: after, count: after.length };
    }
  }

  /** An administrator's sync, audited as `sync_wallpapers`. */
  async syncBy(actor: Actor): Promise<WallpaperSync> {
    const result = await this.sync();
    await this.o.audit.record(actor, 'sync_wallpapers', { type: 'wallpaper', detail: `downloaded=${result.downloaded}` });
    return result;
  }

  /** Downloads the archive's images that are not cached yet (single-flight). */
  sync(): Promise<WallpaperSync> {
    this.inflight ??= this.download().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  /** Today's UTC-dated file when it is larger than 1024 bytes, else the newest, else null. */
  async today(): Promise<DailyWallpaper> {
    const files = await this.prune();
    const today = `${this.now().toISOString().slice(0, 10).replace(/-/g, '')}.jpg`;
    const st = await fs.stat(path.join(this.o.dir, today)).catch(() => null);
    if (st?.isFile() && st.size > 1024) return { url: urlOf(today) };
    return { url: files.length ? urlOf(files[0]) : null };
  }

  /** A cached file for serving with its real type, or null (strict name check, no traversal, images only). */
  async file(name: string): Promise<{ path: string; type: ImageType } | null> {
    if (fileDay(name) === null) return null;
    const p = path.join(this.o.dir, name);
    const handle = await fs.open(p, 'r').catch(() => null);
    if (!handle) return null;
    try {
      const head = Buffer.alloc(12);
      const st = await handle.stat();
      if (!st.isFile()) return null;
      await handle.read(head, 0, 12, 0);
      const type = imageTypeOf(head);
      return type ? { path: p, type } : null;
    } finally {
      await handle.close();
    }
  }

  /** Removes files older than 7 days and all but the 12 newest; returns the kept names, newest first. */
  private async prune(): Promise<string[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.o.dir);
    } catch {
      return [];
    }
    const oldest = this.startOfToday() - MAX_AGE_DAYS * DAY_MS;
    const dated = names.filter((n) => fileDay(n) !== null).sort().reverse();
    const keep: string[] = [];
    for (const name of dated) {
      if (fileDay(name)! < oldest || keep.length >= MAX_WALLPAPERS) {
        await fs.rm(path.join(this.o.dir, name), { force: true }).catch(() => {});
      } else {
        keep.push(name);
      }
    }
    return keep;
  }

  private startOfToday(): number {
    const n = this.now();
    return Date.UTC(n.getUTCFullYear(), n.getUTCMonth(), n.getUTCDate());
  }

  private async download(): Promise<WallpaperSync> {
    const source = new URL(this.o.sourceUrl);
    let archive: unknown;
    try {
      const { body } = await this.o.fetcher.fetchBytes(source, { maxBytes: 2 * 1024 * 1024, sameOrigin: source.origin });
      archive = JSON.parse(body.toString('utf8'));
    } catch (err) {
      throw new BadGatewayError(`Wallpaper source: ${err instanceof Error ? err.message : 'request failed'}`, 'wallpaper_source_failed');
    }
    const images = (archive as { images?: unknown })?.images;
    if (!Array.isArray(images)) throw new BadGatewayError('Wallpaper source: the archive has no images list', 'wallpaper_source_failed');
    await fs.mkdir(this.o.dir, { recursive: true, mode: 0o700 });
    const oldest = this.startOfToday() - MAX_AGE_DAYS * DAY_MS;
    let downloaded = 0;
    for (const entry of images.slice(0, ARCHIVE_ENTRIES)) {
      const { url, startdate } = (entry ?? {}) as { url?: unknown; startdate?: unknown };
      if (typeof url !== 'string' || typeof startdate !== 'string') continue;
      const name = `${startdate}.jpg`;
      const day = fileDay(name);
      if (day === null || day < oldest) continue;
      const target = path.join(this.o.dir, name);
      if (await fs.stat(target).then(() => true, () => false)) continue;
      try {
        // An entry's url is resolved against the archive's origin, and must stay on it.
        const { body } = await this.o.fetcher.fetchBytes(new URL(url, source.origin), { maxBytes: this.maxImageBytes, sameOrigin: source.origin });
        if (!imageTypeOf(body.subarray(0, 12))) throw new Error('not a JPEG, PNG or WebP image');
        const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
        await fs.writeFile(tmp, body, { mode: 0o600 });
        await fs.rename(tmp, target);
        downloaded++;
      } catch (err) {
        this.o.log.warn({ file: name, err }, 'wallpaper download failed');
      }
    }
    const urls = await this.list();
    return { urls, count: urls.length, downloaded };
  }
}
