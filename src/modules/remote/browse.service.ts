/**
 * Remote directory listing (10 s). Names may hold spaces, newlines, quotes or a leading
 * dash, so `ls` columns are never split on whitespace: the remote side prints NUL-separated
 * fields (GNU `find -printf`; a `stat -c` loop where find lacks -printf, e.g. BusyBox), and the
 * `ls -l`-style columns are rebuilt here.
 */
import { shellQuote } from '../../adapters/ssh/quote.js';
import type { SshTarget } from '../../adapters/ssh/types.js';
import type { Actor } from '../../core/actor.js';
import { BadRequestError } from '../../core/errors.js';
import { commandFailed, commandFailureDetail, isConnectionFailure, sshTargetOrFailure } from './remote-errors.js';
import type { RemoteDeps } from './remote-deps.js';
import { assertNoNul } from './remote-paths.js';
import type { BrowseBody, BrowseEntry, BrowseResponse } from './remote.schemas.js';

const TIMEOUT_MS = 10_000;
const ERROR_CHARS = 500;
/** A listing this large (~150,000 entries) is refused rather than half-parsed. */
const MAX_LISTING_BYTES = 16 * 1024 * 1024;
/** `ls` shows the year instead of the time for files older than half a Gregorian year. */
const SIX_MONTHS_S = 31_556_952 / 2;
/** Clock skew between this host and the server that still counts as "now". */
const FUTURE_SLOP_S = 300;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Enter the directory, with the reason spelled out (dash's `cd` only says "can't cd"). */
function enter(dir: string): string {
  return [
    `unset CDPATH; d=${shellQuote(dir)}`,
    `if [ ! -e "$d" ]; then printf '%s: No such file or directory\\n' "$d" >&2; exit 2; fi`,
    `if [ ! -d "$d" ]; then printf '%s: Not a directory\\n' "$d" >&2; exit 2; fi`,
    'cd -- "$d" || exit 2',
  ].join('\n');
}

/** perms, size, owner, remote-local "Y m d HH:MM", epoch, name — each NUL-terminated. */
export function gnuListingScript(dir: string): string {
  return `${enter(dir)}\nLC_ALL=C exec find . -mindepth 1 -maxdepth 1 -printf '%M\\0%s\\0%u\\0%TY %Tm %Td %TH:%TM\\0%T@\\0%f\\0'`;
}

/** Portable fallback: the UTC offset, then per entry a `perms/size/owner/epoch` line and the NUL-terminated name. */
export function portableListingScript(dir: string): string {
  return [
    enter(dir),
    `printf '%s\\000' "$(date +%z)"`,
    'for f in .* *; do',
    '  case $f in .|..) continue;; esac',
    '  [ -e "$f" ] || [ -h "$f" ] || continue',
    `  LC_ALL=C stat -c '%A/%s/%U/%Y' -- "$f" 2>/dev/null || echo '?---------/0/?/0'`,
    `  printf '%s\\000' "$f"`,
    'done',
  ].join('\n');
}

function lsDate(epoch: number, y: number, month: number, day: number, hm: string, nowS: number): string {
  const recent = epoch > nowS - SIX_MONTHS_S && epoch <= nowS + FUTURE_SLOP_S;
  return `${MONTHS[month - 1] ?? '???'} ${day} ${recent ? hm : String(y)}`;
}

function entry(name: string, perms: string, size: string, owner: string, modified: string): BrowseEntry {
  return { name, is_dir: perms.startsWith('d'), size, perms, owner, modified };
}

export function parseGnuListing(out: string, nowS = Date.now() / 1000): BrowseEntry[] | null {
  const f = out.split('\0');
  if (f.pop() !== '' || f.length % 6 !== 0) return null;
  const entries: BrowseEntry[] = [];
  for (let i = 0; i < f.length; i += 6) {
    const [perms, size, owner, when, epoch, name] = f.slice(i, i + 6);
    const m = /^(\d+) (\d+) (\d+) (\d\d:\d\d)$/.exec(when);
    const modified = m ? lsDate(Number(epoch), Number(m[1]), Number(m[2]), Number(m[3]), m[4], nowS) : when;
    entries.push(entry(name, perms, size, owner, modified));
  }
  return entries;
}

export function parsePortableListing(out: string, nowS = Date.now() / 1000): BrowseEntry[] | null {
  const firstNul = out.indexOf('\0');
  if (firstNul < 0) return null;
  const off = /^([+-])(\d\d)(\d\d)$/.exec(out.slice(0, firstNul));
  const offsetS = off ? (off[1] === '-' ? -1 : 1) * (Number(off[2]) * 3600 + Number(off[3]) * 60) : 0;
  const entries: BrowseEntry[] = [];
  let pos = firstNul + 1;
  while (pos < out.length) {
    const nl = out.indexOf('\n', pos);
    const nul = nl < 0 ? -1 : out.indexOf('\0', nl + 1);
    if (nul < 0) return null;
    const meta = out.slice(pos, nl).split('/');
    const name = out.slice(nl + 1, nul);
    pos = nul + 1;
    if (meta.length < 4) return null;
    const epoch = Number(meta[meta.length - 1]);
    const local = new Date((epoch + offsetS) * 1000);
    const hm = `${String(local.getUTCHours()).padStart(2, '0')}:${String(local.getUTCMinutes()).padStart(2, '0')}`;
    const modified = lsDate(epoch, local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate(), hm, nowS);
    entries.push(entry(name, meta[0], meta[1], meta.slice(2, -1).join('/'), modified));
  }
  return entries;
}

/** Directories first, then by name (case-insensitively, as the staging browser does). */
export function sortEntries(entries: BrowseEntry[]): BrowseEntry[] {
  return entries.sort((a, b) => {
    if (a.is_dir !== b.is_dir) return a.is_dir ? -1 : 1;
    const la = a.name.toLowerCase();
    const lb = b.name.toLowerCase();
    if (la !== lb) return la < lb ? -1 : 1;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}

type Listing = { entries: BrowseEntry[] } | { error: string };

export class BrowseService {
  constructor(private readonly d: RemoteDeps) {}

  async browse(actor: Actor, body: BrowseBody): Promise<BrowseResponse> {
    if (!body.server_id) throw new BadRequestError('server_id is required', 'server_id_required');
    const dir = body.path && body.path.length > 0 ? body.path : '/';
    assertNoNul(dir, 'path');
    const row = await this.d.servers.get(body.server_id);
    const target = await sshTargetOrFailure(this.d.servers, row);

    let listing: Listing;
    try {
      listing = 'failure' in target ? { error: target.failure.slice(0, ERROR_CHARS) } : await this.list(target, dir);
    } catch (err) {
      if (!isConnectionFailure(err)) throw err;
      listing = { error: err.message.slice(0, ERROR_CHARS) };
    }
    await this.d.audit.record(actor, 'browse_directory', {
      type: 'server',
      id: row.id,
      detail: 'error' in listing ? `path=${dir} failed` : `path=${dir} entries=${listing.entries.length}`,
    });
    return 'error' in listing ? { path: dir, entries: [], error: listing.error } : { path: dir, entries: listing.entries };
  }

  /** Lists `dir` with the GNU script, falling back to the portable one where `find` lacks -printf. */
  async list(target: SshTarget, dir: string, portable = false): Promise<Listing> {
    const script = portable ? portableListingScript(dir) : gnuListingScript(dir);
    const r = await this.d.ssh.exec(target, script, { timeoutMs: TIMEOUT_MS, maxOutputBytes: MAX_LISTING_BYTES });
    if (commandFailed(r)) {
      if (!portable && !r.timedOut && /-printf/.test(r.stderr)) return this.list(target, dir, true);
      return { error: commandFailureDetail(r, ERROR_CHARS, TIMEOUT_MS) };
    }
    if (Buffer.byteLength(r.stdout) >= MAX_LISTING_BYTES - 4) {
      return { error: 'The directory listing is too large to show' };
    }
    const entries = portable ? parsePortableListing(r.stdout) : parseGnuListing(r.stdout);
    if (!entries) return { error: 'The remote listing could not be parsed' };
    return { entries: sortEntries(entries) };
  }
}
