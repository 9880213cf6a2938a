/**
 * The one place a notification's words are written: an event becomes a NotificationMessage
 * (title, plain text, Markdown, the messenger bot's HTML) in the operator's language
 * (`notify_language`: en or zh-CN). A message is built from segments (plain, bold, preformatted)
 * so each form escapes what its own syntax needs: every server name, label and output is user
 * data. The English HTML is word for word what the bot received before channels existed.
 */
import type { NotificationMessage } from '../../adapters/notifiers/notifier.js';
import { type RenderedEvent, severityOf } from './notification-events.js';
import { type Draft, type Segment, segmentsHtml } from './message-parts.js';
import { EN_TEXTS } from './texts-en.js';
import { ZH_TEXTS } from './texts-zh.js';

export type Language = 'en' | 'zh-CN';
type Texts = (e: RenderedEvent) => Draft;

const TEXTS: Record<Language, Texts> = { en: EN_TEXTS, 'zh-CN': ZH_TEXTS };

export function languageOf(setting: string | null | undefined): Language {
  return setting === 'zh-CN' ? 'zh-CN' : 'en';
}

/** Markdown's inline syntax characters, backslash-escaped so user data renders as typed. */
function escapeMarkdown(s: string): string {
  return s.replace(/([\\`*_[\]#|<>~])/g, '\\$1');
}

function segmentsMarkdown(segs: Segment[]): string {
  return segs
    .map((s) => {
      if (typeof s === 'string') return escapeMarkdown(s);
      if ('b' in s) return `**${escapeMarkdown(s.b)}**`;
      return `\n\`\`\`\n${s.pre.replaceAll('```', "'''")}\n\`\`\``;
    })
    .join('');
}

function segmentsText(segs: Segment[]): string {
  return segs.map((s) => (typeof s === 'string' ? s : 'b' in s ? s.b : `\n${s.pre}`)).join('');
}

export function render(e: RenderedEvent, language: Language = 'en'): NotificationMessage {
  const d = TEXTS[language](e);
  const body = d.body.length > 0 ? d.body : d.head;
  return {
    title: segmentsText(d.head).replace(/\s+/g, ' ').trim(),
    text: segmentsText(body).trim(),
    markdown: segmentsMarkdown(body).trim(),
    html: segmentsHtml(d.head) + (d.body.length > 0 ? d.glue + segmentsHtml(d.body) : ''),
    kind: e.kind,
    severity: severityOf(e),
  };
}

