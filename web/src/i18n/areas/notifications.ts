/**
 * The notifications area's strings in both languages, side by side. `codes` are the texts of this area's
 * error codes (merged into `errors.codes`). zh-CN must have exactly the English keys.
 */
import type { Translated } from '../translated';

export const en = {};

export const zhCN: Translated<typeof en> = {};

export const codesEn = {};

export const codesZhCN: Translated<typeof codesEn> = {};
