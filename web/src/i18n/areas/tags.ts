/**
 * The tags area's strings in both languages, side by side. `codes` are the texts of this area's
 * error codes (merged into `errors.codes`). zh-CN must have exactly the English keys.
 */
import type { Translated } from '../translated';

export const en = {
  title: 'Tags',
  intro: 'Every tag the fleet uses and how many servers carry it. Renaming or removing a tag changes every server that carries it.',
  listLabel: 'Tags',
  tag: 'Tag', servers: 'Servers', actions: 'Actions',
  serverCount_one: '{{count}} server', serverCount_other: '{{count}} servers',
  showServers: 'Servers tagged {{tag}}',
  pushTo: 'Push to this tag', pushToTag: 'Push to this tag: {{tag}}',
  rename: 'Rename', renameTag: 'Rename the tag {{tag}}', newName: 'New name',
  renameHelp_one: 'The {{count}} server carrying {{tag}} will carry the new name instead.',
  renameHelp_other: 'The {{count}} servers carrying {{tag}} will carry the new name instead.',
  mergeTitle: 'Merge into {{to}}?',
  mergeConfirm: 'Servers already carry {{to}}. Merge {{from}} into it? A server carrying both keeps {{to}} once. This cannot be undone by renaming back.',
  merge: 'Merge',
  remove: 'Remove', removeTag: 'Remove the tag {{tag}}',
  removeConfirm_one: 'Remove the tag {{tag}} from {{count}} server? The server stays.',
  removeConfirm_other: 'Remove the tag {{tag}} from {{count}} servers? The servers stay.',
  renamed_one: 'Renamed {{from}} to {{to}} on {{count}} server.', renamed_other: 'Renamed {{from}} to {{to}} on {{count}} servers.',
  removed_one: 'Removed {{tag}} from {{count}} server.', removed_other: 'Removed {{tag}} from {{count}} servers.',
  empty: 'No server carries a tag yet. Tags are set on a server\'s form.',
  toServers: 'Go to servers',
};

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
