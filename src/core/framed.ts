/**
 * A block of text framed so it stands out between log lines. It is written to stderr directly,
 * never through the logger: no log level hides it and no log shipper collects it.
 */
export function framed(lines: string[]): string {
  const width = Math.max(...lines.map((l) => l.length));
  const bar = `+${'-'.repeat(width + 2)}+`;
  return `\n${bar}\n${lines.map((l) => `| ${l.padEnd(width)} |`).join('\n')}\n${bar}\n\n`;
}
