/** The allowlist area in Simplified Chinese: exactly the keys of allowlist.en.ts. */
import type { Translated } from '../translated';
import type { codesEn, en } from './allowlist.en';

export const zhCN: Translated<typeof en> = {
  title: '登录白名单',
  intro: '启用后，只允许从此处列出的地址、网段和主机名登录（手动条目与订阅条目合并）。',
  status: '状态',
  enabled: '启用白名单',
  on: '已启用',
  off: '已关闭',
  turnedOn: '登录白名单已启用。',
  turnedOff: '登录白名单已关闭。',
  yourAddress: '服务看到的你的地址：{{ip}}',
  youAreListed: '该地址在名单中：启用白名单后你仍可登录。',
  youAreNotListed: '该地址不在名单中。',
  lockoutTitle: '你将被锁定在外',
  lockoutMessage: '你的地址 {{ip}} 不在白名单中。启用后，你将无法再从此地址登录，直到有人关闭白名单或添加你的地址。',
  lockoutConfirm: '仍然启用',
  counts: {
    manual_other: '{{count}} 个手动条目',
    subscription_other: '{{count}} 个来自订阅',
    total_other: '共 {{count}} 个不重复条目',
  },
  lastRefresh: '上次刷新',
  neverRefreshed: '从未',
  manual: {
    title: '手动条目',
    empty: '还没有手动条目。',
    addLabel: '添加条目（每行一个）',
    addHelp: 'IPv4 地址、IPv4 网段（如 203.0.113.0/24）或主机名。每次最多 100 个。',
    add: '添加条目',
    added_other: '已添加 {{count}} 个条目。',
    lineError: '第 {{line}} 行：“{{input}}”不是 IPv4 地址、网段或主机名。',
    linesRefused_other: '有 {{count}} 行被拒绝，未添加任何条目。请修正后重新添加。',
    remove: '删除 {{entry}}',
    removed: '已删除 {{entry}}。',
    focusEntries: '条目',
  },
  subscription: {
    title: '订阅',
    help: '代理订阅链接；其中的主机名和地址将被允许。每 2 小时刷新一次。',
    url: '订阅地址',
    preview: '预览',
    previewCount_other: '订阅中有 {{count}} 个主机。',
    previewHosts: '订阅中的主机',
    save: '保存地址',
    clear: '移除订阅',
    saved: '订阅已保存。',
    savedRefreshFailed: '地址已保存，但刷新失败：{{error}}',
    refresh: '立即刷新',
    refreshed_other: '已刷新：{{count}} 个主机。',
    refreshFailed: '刷新失败，保留之前的名单：{{error}}',
    entries: '来自订阅的条目',
  },
};

export const codesZhCN: Translated<typeof codesEn> = {
  allowlist_no_subscription: '请先设置订阅地址，再刷新。',
};
