/**
 * What the server runs in place of plain `rsync` (rsync's `--rsync-path`, which the remote shell
 * runs with rsync's `--server …` arguments appended).
 *
 * Rule: a transfer that stops moving data ends on the server too, even when the server never sees
 * the connection close. A stalled network path (a black-holing middlebox, a frozen proxy) looks
 * alive to sshd, and rsync's own `--timeout` cannot end the server side then: the remote
 * generator's keepalives keep being accepted into sshd's buffers, and rsync counts a successful
 * write as activity. So a watchdog runs beside the remote rsync: when the rsync processes of this
 * session have read nothing for `idleKillSec` (a live client makes them read at least every half
 * `--timeout`, with its keepalives), it kills the session's process group (sshd starts each
 * session in its own), itself included. It needs Linux's /proc/PID/io and pgrep; without them (or
 * when no counter can be read) it stays out of the way and the transfer runs as before.
 */
import { shellQuote } from '../ssh/quote.js';

/**
 * Seconds between the watchdog's looks: a sixth of the idle limit (so a stall ends within
 * 7/6 of it), at least 2 and at most 10. Each look forks one `pgrep` on the server, which shares
 * the CPU with the transfer; transfers shorter than one step make no look at all. The watchdog
 * notices its rsync has ended at its next look, so it outlives a transfer by at most one step
 * (a sleeping shell holding no descriptor of the session).
 */
function stepSec(idleKillSec: number): number {
  return Math.min(10, Math.max(2, Math.ceil(idleKillSec / 6)));
}

/**
 * The `--rsync-path` value: optionally make sure the parent of `mkdir` exists first (in the same
 * connection; works with any remote rsync, unlike --mkpath; rsync itself creates the last level),
 * then start the watchdog and exec rsync with its arguments.
 */
export function remoteRsyncPath(opts: { mkdir?: string; idleKillSec: number }): string {
  const step = stepSec(opts.idleKillSec);
  const steps = Math.max(2, Math.ceil(opts.idleKillSec / step));
  // $$ is the shell that becomes rsync (exec keeps the pid); the watchdog's `kill 0` reaches the
  // whole process group: rsync's generator and receiver, and the watchdog itself. The counters
  // are read with the shell's own `read` (no process per rsync and look).
  const script = [
    `if [ -r /proc/$$/io ] && command -v pgrep >/dev/null 2>&1; then`,
    `( last=; idle=0`,
    // It looks only while rsync lives: after each sleep, before reading anything.
    `while sleep ${step} && kill -0 $$ 2>/dev/null; do`,
    `n=; for p in $(pgrep -s 0 -x rsync); do while read -r k v; do [ "$k" = rchar: ] && { n="$n $v"; break; }; done </proc/$p/io; done`,
    // No counter read at all (a pgrep without -s, an unreadable io file) is never taken for idleness.
    `case $n in *[0-9]*) ;; *) idle=0; last=; continue ;; esac`,
    `if [ "$n" = "$last" ]; then idle=$((idle + 1)); [ "$idle" -ge ${steps} ] && kill -KILL 0; else idle=0; last=$n; fi`,
    `done ) </dev/null >/dev/null 2>&1 &`,
    'fi',
    'exec rsync "$@"',
  ].join('\n');
  const run = `exec sh -c ${shellQuote(script)} fleet-rsync`;
  if (opts.mkdir === undefined) return run;
  // `mkdir` is a process; the test is the shell's own. Only a missing parent needs it.
  const parent = parentDir(opts.mkdir);
  return `{ [ -d ${shellQuote(parent)} ] || mkdir -p -- ${shellQuote(parent)}; } && ${run}`;
}

/** The directory holding `dir` (a relative one without a slash lives in the home: `.`). */
function parentDir(dir: string): string {
  const trimmed = dir.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  const i = trimmed.lastIndexOf('/');
  if (i < 0) return '.';
  return i === 0 ? '/' : trimmed.slice(0, i);
}
