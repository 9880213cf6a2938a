/**
 * POSIX shell quoting. Every remote path and argument that reaches a remote shell goes
 * through here, so it is deliberately the simplest scheme that is always correct: wrap in
 * single quotes (inside which nothing is special) and spell each embedded quote as '\''.
 * It never leaves a word unquoted, even a "safe" one, so there is no second code path to
 * get wrong. A leading '-' is still an option to the command that receives it: callers put
 * `--` before operands where the command supports it.
 */
export function shellQuote(s: string): string {
  if (s.includes('\0')) {
    // A NUL cannot be passed through argv at all; refusing beats silent truncation remotely.
    throw new TypeError('shellQuote: argument contains a NUL byte');
  }
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Quote each element and join with spaces: the result is one shell command line. */
export function shellJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}
