import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
// The value (not only the type) of the service's catalogue: the console must translate every code.
import { ERROR_CODES } from '@server/core/error-codes';
import { en } from '../../src/i18n/en';
import { zhCN } from '../../src/i18n/zh-CN';

const LANGS = { en, 'zh-CN': zhCN } as const;
const PLURAL = /_(zero|one|two|few|many|other)$/;

function keys(o: object, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' && v ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
}

function get(o: object, path: string): string {
  return path.split('.').reduce((x: unknown, k) => (x as Record<string, unknown>)[k], o) as string;
}

function placeholders(s: string): string[] {
  return [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
}

/** The plural categories CLDR gives a language: en has one/other, Chinese only other. */
function categories(lang: string): string[] {
  return [...new Intl.PluralRules(lang).resolvedOptions().pluralCategories].sort();
}

/** Keys with their plural suffix removed: what `t()` is called with. */
function bases(o: object): string[] {
  return [...new Set(keys(o).map((k) => k.replace(PLURAL, '')))].sort();
}

describe('translations', () => {
  it('zh-CN has exactly the English keys (plural forms aside: each language has its own)', () => {
    expect(bases(zhCN)).toEqual(bases(en));
  });

  it.each(Object.entries(LANGS))('%s: every string that shows a {{count}} has exactly the plural forms of its language', (lang, res) => {
    const want = categories(lang);
    const all = keys(res);
    const wrong: string[] = [];
    for (const base of bases(res)) {
      const forms = all.filter((k) => k.replace(PLURAL, '') === base && PLURAL.test(k)).map((k) => PLURAL.exec(k)![1]).sort();
      const counted = all.some((k) => k.replace(PLURAL, '') === base && get(res, k).includes('{{count}}'));
      if (counted && forms.join() !== want.join()) wrong.push(`${base} has [${forms}] (needs [${want}])`);
      if (!counted && forms.length > 0) wrong.push(`${base} has plural forms but shows no {{count}}`);
    }
    expect(wrong).toEqual([]);
  });

  it('every zh-CN string uses the same placeholders as its English one', () => {
    // A plural is compared through its _other form, the one both languages have.
    const differing = keys(zhCN).filter((k) => placeholders(get(en, k)).join() !== placeholders(get(zhCN, k)).join());
    expect(differing).toEqual([]);
  });

  it('i18next picks the right form: "1 server" and "2 servers", one form in Chinese', async () => {
    const i18n = createInstance();
    await i18n.init({ resources: { en: { translation: en }, 'zh-CN': { translation: zhCN } }, lng: 'en', interpolation: { escapeValue: false } });
    expect(i18n.t('servers.count', { count: 1 })).toBe('1 server');
    expect(i18n.t('servers.count', { count: 2 })).toBe('2 servers');
    expect(i18n.t('push.start', { count: 1 })).toBe('Push to 1 server');
    expect(i18n.t('push.entries', { count: 1 })).toBe('1 entry');
    expect(i18n.t('push.retryFailed', { count: 1 })).toBe('Retry the failed server');
    await i18n.changeLanguage('zh-CN');
    expect(i18n.t('servers.count', { count: 1 })).toBe('1 台服务器');
    expect(i18n.t('servers.count', { count: 5 })).toBe('5 台服务器');
  });

  it.each(Object.entries(LANGS))('%s has a text for every error code of the service', (_lang, res) => {
    const missing = Object.keys(ERROR_CODES).filter((code) => typeof (res.errors.codes as Record<string, unknown>)[code] !== 'string');
    expect(missing).toEqual([]);
  });
});
