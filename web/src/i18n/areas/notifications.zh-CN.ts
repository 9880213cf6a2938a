/** The notifications area in Simplified Chinese: exactly the keys of notifications.en.ts. */
import type { Translated } from '../translated';
import type { codesEn, en } from './notifications.en';

export const zhCN: Translated<typeof en> = {
  title: '通知',
  intro: '告警和事件通过消息机器人发送。服务器离线告警可以使用单独的机器人。',
  bots: {
    default: '通知机器人',
    offline: '离线告警机器人',
    defaultHelp: '发送所有通知；未设置离线告警机器人时也发送离线告警。',
    offlineHelp: '可选：设置令牌和聊天 ID 后，服务器离线告警将发送到这里。',
  },
  findChats: '查找聊天',
  findChatsHelp: '先给机器人发送任意消息，再查找它见过的聊天。',
  chatsFound_other: '找到 {{count}} 个聊天',
  noChats: '机器人还没有见过任何聊天。请先给它发送一条消息，然后重试。',
  pickChat: '聊天',
  useChat: '使用此聊天',
  chatUsed: '聊天 ID 已保存。',
  chatTypes: { private: '私聊', group: '群组', supergroup: '超级群组', channel: '频道', other: '其他' },
  sendTest: '发送测试消息',
  testSent: '测试消息已发送。',
  events: '哪些事件发送通知',
  eventsHelp: '每个开关切换后立即保存。',
};

export const codesZhCN: Translated<typeof codesEn> = {};
