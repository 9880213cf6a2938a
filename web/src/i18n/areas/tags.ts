/**
 * The tags area's strings in both languages, side by side. `codes` are the texts of this area's
 * error codes (merged into `errors.codes`). zh-CN must have exactly the English keys.
 */
import type { Translated } from '../translated';

export const en = {};

export const zhCN: Translated<typeof en> = {};

export const codesEn = {
  tag_invalid: 'A tag must be 1 to 64 characters, without control characters.',
  tag_not_found: 'No server carries that tag any more.',
  tag_unchanged: 'The new name is the same as the old one.',
  tag_exists: 'Servers already carry that tag. Merge the two tags?',
};

export const codesZhCN: Translated<typeof codesEn> = {
  tag_invalid: '标签须为 1 到 64 个字符，且不含控制字符。',
  tag_not_found: '已没有服务器带有该标签。',
  tag_unchanged: '新名称与原名称相同。',
  tag_exists: '已有服务器带有该标签。要合并这两个标签吗？',
};
