/** The script-completion notification: HTML for the messenger bot, every user value escaped. */
import type { ScriptRunResultView } from './scripts.schemas.js';

/** Telegram-style HTML: only &, < and > are special in text (and " inside attributes). */
export function escapeHtml(s: string): string {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/** Bot messages are capped (4096 characters for Telegram); stay below with room to spare. */
const MESSAGE_BUDGET = 3800;
const OUTPUT_TAIL = 300;

function tail(s: string, n: number): string {
  const t = s.trimEnd();
  return t.length > n ? `…${t.slice(-n)}` : t;
}

export function scriptCompleteHtml(label: string, rows: ScriptRunResultView[]): string {
  const ok = rows.filter((r) => r.exit_code === 0 && !r.error).length;
  const head = `<b>Script finished</b>: ${escapeHtml(label)}\n${ok}/${rows.length} servers succeeded`;
  const parts: string[] = [head];
  let used = head.length;
  for (const [i, r] of rows.entries()) {
    const name = escapeHtml(r.server_name ?? `#${r.server_id}`);
    const state = r.error ? `error: ${escapeHtml(r.error)}` : `exit ${r.exit_code ?? '?'}`;
    const output = tail(r.exit_code === 0 ? r.stdout : r.stderr || r.stdout, OUTPUT_TAIL);
    const block = `\n\n<b>${name}</b> — ${state} (${r.duration_ms} ms)${output ? `\n<pre>${escapeHtml(output)}</pre>` : ''}`;
    if (used + block.length > MESSAGE_BUDGET) {
      parts.push(`\n\n… and ${rows.length - i} more`);
      break;
    }
    parts.push(block);
    used += block.length;
  }
  return parts.join('');
}
