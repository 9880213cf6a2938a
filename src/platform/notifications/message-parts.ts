/** The building blocks of a notification's wording: segments, their HTML form, shared pieces. */
import type { NotificationEvent } from './notification-events.js';

export type Segment = string | { b: string } | { pre: string };

/** A message as segments: a one-line head (the title), the glue the HTML puts between, a body. */
export interface Draft {
  head: Segment[];
  /** What joins head and body in the one-piece HTML (": ", " " or a line break). */
  glue: string;
  body: Segment[];
}

/** Bot-style HTML: only &, < and > are special in text (and " inside attributes). */
export function escapeHtml(s: string): string {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

export function segmentsHtml(segs: Segment[]): string {
  return segs.map((s) => (typeof s === 'string' ? escapeHtml(s) : 'b' in s ? `<b>${escapeHtml(s.b)}</b>` : `<pre>${escapeHtml(s.pre)}</pre>`)).join('');
}

export const pct = (v: number | null) => (v === null ? '?' : `${Math.round(v * 10) / 10}%`);

/** The bot caps a message (4096 characters for Telegram); a script report stays below with room to spare. */
const MESSAGE_BUDGET = 3800;
const OUTPUT_TAIL = 300;

function tail(s: string, n: number): string {
  const t = s.trimEnd();
  return t.length > n ? `…${t.slice(-n)}` : t;
}

/** The per-server blocks of a script report, cut to the message budget (measured on the HTML). */
export function scriptBlocks(
  e: Extract<NotificationEvent, { kind: 'script_complete' }>,
  words: { error: string; exit: string; more: (n: number) => string },
  headLength: number,
): Segment[] {
  const out: Segment[] = [];
  let used = headLength;
  for (const [i, r] of e.results.entries()) {
    const state = r.error ? `${words.error}: ${r.error}` : `${words.exit} ${r.exit_code ?? '?'}`;
    const output = tail(r.exit_code === 0 ? r.stdout : r.stderr || r.stdout, OUTPUT_TAIL);
    const block: Segment[] = ['\n\n', { b: r.server_name ?? `#${r.server_id}` }, ` — ${state} (${r.duration_ms} ms)`];
    if (output) block.push('\n', { pre: output });
    const size = segmentsHtml(block).length;
    if (used + size > MESSAGE_BUDGET) {
      out.push(`\n\n${words.more(e.results.length - i)}`);
      break;
    }
    out.push(...block);
    used += size;
  }
  return out;
}
