/** The tags area in Simplified Chinese: exactly the keys of tags.en.ts. */
import type { Translated } from '../translated';
import type { codesEn, en } from './tags.en';

export const zhCN: Translated<typeof en> = {
  title: '标签',
  intro: '服务器群使用的全部标签及带有各标签的服务器数量。重命名或移除标签会修改所有带有该标签的服务器。',
  listLabel: '标签',
  tag: '标签', servers: '服务器', actions: '操作',
  serverCount_other: '{{count}} 台服务器',
  showServers: '带有标签 {{tag}} 的服务器',
  pushTo: '推送到此标签', pushToTag: '推送到此标签：{{tag}}',
  rename: '重命名', renameTag: '重命名标签 {{tag}}', newName: '新名称',
  renameHelp_other: '带有 {{tag}} 的 {{count}} 台服务器将改为带有新名称。',
  mergeTitle: '合并到 {{to}}？',
  mergeConfirm: '已有服务器带有 {{to}}。要将 {{from}} 合并进去吗？同时带有两者的服务器只保留一个 {{to}}。再次重命名无法撤销合并。',
  merge: '合并',
  remove: '移除', removeTag: '移除标签 {{tag}}',
  removeConfirm_other: '从 {{count}} 台服务器上移除标签 {{tag}}？服务器本身保留。',
  renamed_other: '已在 {{count}} 台服务器上将 {{from}} 重命名为 {{to}}。',
  removed_other: '已从 {{count}} 台服务器上移除 {{tag}}。',
  empty: '还没有服务器带有标签。标签在服务器表单中设置。',
  toServers: '前往服务器',
};

export const codesZhCN: Translated<typeof codesEn> = {
  tag_invalid: '标签须为 1 到 64 个字符，且不含控制字符。',
  tag_not_found: '已没有服务器带有该标签。',
  tag_unchanged: '新名称与原名称相同。',
  tag_exists: '已有服务器带有该标签。要合并这两个标签吗？',
};
