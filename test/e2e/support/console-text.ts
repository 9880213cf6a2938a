/**
 * The console's own strings and navigation, read from web/src when the test runs, so journeys
 * follow the wording instead of copying it:
 *
 *   t(en, 'servers.count', { count: '10,000' })   // '10,000 servers'
 *   t(zhCN, 'nav.servers')                          // '服务器'
 *   NAV_ITEMS                                       // every navigation item: key, path
 *
 * The paths are computed so the server's tsconfig does not type-check the console's sources
 * (they are built with the console's own settings).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface Strings {
  [key: string]: Strings | string;
}

const WEB = path.resolve(import.meta.dirname, '../../../web/src');
const load = async (rel: string): Promise<Record<string, unknown>> => (await import(pathToFileURL(path.join(WEB, rel)).href)) as Record<string, unknown>;

export const en = (await load('i18n/en.ts')).en as Strings;
export const zhCN = (await load('i18n/zh-CN.ts')).zhCN as Strings;

export interface NavItem {
  /** Its label is `nav.<key>`. */
  key: string;
  path: string;
}

export const NAV_ITEMS: NavItem[] = ((await load('app/nav.ts')).NAV as Array<{ items: NavItem[] }>).flatMap((g) =>
  g.items.map(({ key, path: p }) => ({ key, path: p })),
);

/**
 * The string at `key` (dotted) with {{placeholders}} filled; throws on a key that does not exist.
 * With a numeric `count`, the plural form the language's rules pick (`key_one`, `key_other`), as i18next does.
 */
export function t(res: Strings, key: string, values: Record<string, string | number> = {}): string {
  if (typeof values.count === 'number') {
    const form = new Intl.PluralRules(res === zhCN ? 'zh-CN' : 'en').select(values.count);
    const parts = key.split('.');
    const parent = parts.slice(0, -1).reduce<Strings | string | undefined>((n, p) => (n && typeof n !== 'string' ? n[p] : undefined), res);
    if (parent && typeof parent !== 'string' && `${parts.at(-1)}_${form}` in parent) key = `${key}_${form}`;
  }
  let node: Strings | string = res;
  for (const part of key.split('.')) {
    if (typeof node === 'string' || !(part in node)) throw new Error(`no string ${key}`);
    node = node[part];
  }
  if (typeof node !== 'string') throw new Error(`${key} is a group, not a string`);
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
}
