import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en';
import { zhCN } from '../../src/i18n/zh-CN';

function keys(o: object, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' && v ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
}

function placeholders(s: string): string[] {
  return [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
}

describe('translations', () => {
  it('zh-CN has exactly the English keys', () => {
    expect(keys(zhCN).sort()).toEqual(keys(en).sort());
  });

  it('every zh-CN string uses the same placeholders as its English one', () => {
    const get = (o: object, path: string) => path.split('.').reduce((x: unknown, k) => (x as Record<string, unknown>)[k], o) as string;
    const differing = keys(en).filter((k) => placeholders(get(en, k)).join() !== placeholders(get(zhCN, k)).join());
    expect(differing).toEqual([]);
  });
});
