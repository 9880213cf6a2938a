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

/** Seconds between the watchdog's looks at the rsync processes' read counters. */
const STEP_SEC = 2;

/**
 * The `--rsync-path` value: optionally create `mkdir` first (in the same connection; works with
 * any remote rsync, unlike --mkpath), then start the watchdog and exec rsync with its arguments.
 */
export function remoteRsyncPath(opts: { mkdir?: string; idleKillSec: number }): string {
  const steps = Math.max(2, Math.ceil(opts.idleKillSec / STEP_SEC));
  // $$ is the shell that becomes rsync (exec keeps the pid); the watchdog's `kill 0` reaches the
  // whole process group: rsync's generator and receiver, and the watchdog itself.
  const script = [
    `if [ -r /proc/$$/io ] && command -v pgrep >/dev/null 2>&1; then`,
    `( last=; idle=0`,
    `while kill -0 $$ 2>/dev/null; do sleep ${STEP_SEC}`,
    `n=; for p in $(pgrep -s 0 -x rsync); do n="$n $(sed -n 's/^rchar: //p' /proc/$p/io 2>/dev/null)"; done`,
    // No counter read at all (a pgrep without -s, an unreadable io file) is never taken for idleness.
    `case $n in *[0-9]*) ;; *) idle=0; last=; continue ;; esac`,
    `if [ "$n" = "$last" ]; then idle=$((idle + 1)); [ "$idle" -ge ${steps} ] && kill -KILL 0; else idle=0; last=$n; fi`,
    `done ) </dev/null >/dev/null 2>&1 &`,
    'fi',
    'exec rsync "$@"',
  ].join('\n');
  const run = `exec sh -c ${shellQuote(script)} fleet-rsync`;
  return opts.mkdir === undefined ? run : `mkdir -p -- ${shellQuote(opts.mkdir)} && ${run}`;
}
