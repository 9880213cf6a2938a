/**
 * The notifications area's English strings (the reference: notifications.zh-CN.ts must have exactly these keys).
 * `codesEn` are the texts of this area's error codes (merged into `errors.codes`).
 */
export const en = {
  title: 'Notifications',
  intro: 'Alerts and events are sent through a messenger bot. Server-offline alerts can use a bot of their own.',
  bots: {
    default: 'Notification bot',
    offline: 'Offline alert bot',
    defaultHelp: 'Carries every notification, and offline alerts when no offline bot is set.',
    offlineHelp: 'Optional: when its token and chat id are set, server-offline alerts go here.',
  },
  findChats: 'Find chats',
  findChatsHelp: 'Send any message to the bot first, then find the chats it has seen.',
  chatsFound_one: '{{count}} chat found',
  chatsFound_other: '{{count}} chats found',
  noChats: 'The bot has seen no chat yet. Send it a message, then try again.',
  pickChat: 'Chat',
  useChat: 'Use this chat',
  chatUsed: 'The chat id is saved.',
  chatTypes: { private: 'Private', group: 'Group', supergroup: 'Supergroup', channel: 'Channel', other: 'Other' },
  sendTest: 'Send a test message',
  testSent: 'The test message was sent.',
  events: 'Which events notify',
  eventsHelp: 'Each switch is saved at once.',
};

export const codesEn = {};
