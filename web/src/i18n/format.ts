/**
 * Numbers, sizes, durations and times through Intl, in the console's language: sizes in binary
 * units (KiB, MiB), rates per second, durations like `1m 12s`, times relative ("3 min ago") in
 * the browser's zone, and Asia/Shanghai where the API reasons in Shanghai days.
 */
const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatNumber(n: number, lang: string): string {
  return new Intl.NumberFormat(lang).format(n);
}

export function formatBytes(bytes: number, lang: string): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  // 1,048,575 B is 1023.999 KiB, which would print as "1,024 KiB": carry to the next unit.
  if (u > 0 && u < UNITS.length - 1 && Math.round(v) >= 1024) {
    v /= 1024;
    u++;
  }
  const digits = u === 0 || v >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat(lang, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(v)} ${UNITS[u]}`;
}

export function formatRate(bytesPerSecond: number, lang: string): string {
  return `${formatBytes(bytesPerSecond, lang)}/s`;
}

/** `1h 2m`, `1m 12s`, `3.4s`, `850ms`. */
export function formatDuration(ms: number, lang: string): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${formatNumber(Math.round(ms), lang)}ms`;
  if (ms < 10_000) return `${new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(ms / 1000)}s`;
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h}h ${m}m`;
  return m > 0 ? `${m}m ${sec}s` : `${sec}s`;
}

const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

export function formatRelative(iso: string | number | Date, lang: string, now = Date.now()): string {
  const t = new Date(iso).getTime();
  if (!Number.isFinite(t)) return '—';
  const diff = t - now;
  const rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'auto', style: 'short' });
  for (const [unit, ms] of STEPS) {
    // Whole units elapsed (truncated, not rounded): 59.6 s is "59 sec. ago", never "60 sec. ago".
    if (Math.abs(diff) >= ms || unit === 'second') return rtf.format(Math.trunc(diff / ms), unit);
  }
  return rtf.format(0, 'second');
}

/** The exact time in the browser's zone. */
export function formatDateTime(iso: string | number | Date, lang: string, timeZone?: string): string {
  const d = new Date(iso);
  if (!Number.isFinite(d.getTime())) return '—';
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'medium', timeZone }).format(d);
}

export const SHANGHAI = 'Asia/Shanghai';

export function formatShanghai(iso: string | number | Date, lang: string): string {
  return formatDateTime(iso, lang, SHANGHAI);
}

/** 0–100 as the language writes a percentage ("42%", "42 %"), whole numbers. */
export function formatPercent(value: number, lang: string): string {
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }).format(Math.floor(value) / 100);
}
