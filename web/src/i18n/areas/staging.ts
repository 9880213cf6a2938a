/**
 * The staging area's strings in both languages, side by side. `codes` are the texts of this area's
 * error codes (merged into `errors.codes`). zh-CN must have exactly the English keys.
 */
import type { Translated } from '../translated';

export const en = {};

export const zhCN: Translated<typeof en> = {};

export const codesEn = {
  staging_bulk_criteria: 'Choose the directories to delete, or an age.',
};

export const codesZhCN: Translated<typeof codesEn> = {
  staging_bulk_criteria: '请选择要删除的目录，或指定天数。',
};
