/**
 * The notification channels area's English strings (the reference: channels.zh-CN.ts must have exactly these keys).
 * `codesEn` are the texts of this area's error codes (merged into `errors.codes`).
 */
export const en = {
  title: 'Notification channels',
  intro: 'Besides the messenger bot, notifications can go to these channels. Each channel receives the events it subscribes to, for servers with the chosen tags (none: every server).',
  add: 'Add a channel',
  edit: 'Edit {{name}}',
  empty: 'No channel yet. Add one to send notifications to DingTalk, WeCom, email, a webhook and more.',
  type: 'Type',
  name: 'Name',
  enabled: 'Enabled',
  enabledNamed: 'Enabled: {{name}}',
  events: 'Events',
  eventsHelp: 'The events this channel receives. The switches on the Notifications page still apply first.',
  noEvents: 'No events',
  tags: 'Server tags',
  tagsHelp: 'Only events about servers with one of these tags. Leave empty for every server.',
  allServers: 'All servers',
  secretSet: 'Set. Leave blank to keep it.',
  secretUnset: 'Not set.',
  removeSecret: 'Remove {{name}}',
  headersHelp: 'One header per line: Name: value',
  listHelp: 'Comma or Enter separates the values.',
  sendTest: 'Send test',
  sendTestNamed: 'Send test: {{name}}',
  testOk: 'Delivered in {{ms}} ms',
  testFailed: 'Test failed: {{detail}}',
  lastTest: 'Last test',
  notTested: 'Not tested yet',
  editNamed: 'Edit {{name}}',
  deleteNamed: 'Delete {{name}}',
  deleteTitle: 'Delete the channel {{name}}?',
  deleteMessage: 'Notifications stop going to {{name}}. Its settings and secrets are removed.',
  deleted: 'The channel is deleted.',
  saved: 'The channel is saved.',
  types: {
    dingtalk: 'DingTalk', wecom: 'WeCom', feishu: 'Feishu / Lark', email: 'Email (SMTP)', webhook: 'Webhook', messenger: 'Messenger bot',
    serverchan: 'ServerChan', pushplus: 'PushPlus', bark: 'Bark', ntfy: 'ntfy', gotify: 'Gotify', slack: 'Slack', discord: 'Discord',
  },
  eventNames: {
    alert_cpu: 'CPU alert', alert_mem: 'Memory alert', alert_disk: 'Disk alert', recovery_cpu: 'CPU recovered', recovery_mem: 'Memory recovered',
    recovery_disk: 'Disk recovered', offline: 'Server offline', online: 'Server back online', time_drift: 'Clock drift', infrastructure: 'Service health',
    restart: 'Service restart', script_complete: 'Script finished', push_failed: 'Push failed',
  },
  fields: {
    webhook_url: 'Webhook URL', secret: 'Signing secret', at_mobiles: 'Mention mobiles', mentioned_mobile_list: 'Mention mobiles', host: 'SMTP host',
    port: 'Port', security: 'Security', username: 'User name', password: 'Password', from: 'From', to: 'To', url: 'URL', method: 'Method',
    body_format: 'Body format', body_template: 'Body template', headers: 'Headers', api_base: 'API base URL', bot_token: 'Bot token', chat_id: 'Chat id',
    send_key: 'SendKey', token: 'Token', topic: 'Topic', server_url: 'Server URL', device_key: 'Device key', group: 'Group',
    access_token: 'Access token', app_token: 'App token',
  },
  options: {
    tls: 'TLS (port 465)', starttls: 'STARTTLS', none: 'None (plain)', json: 'JSON', form: 'Form',
    POST: 'POST', PUT: 'PUT', PATCH: 'PATCH', GET: 'GET',
  },
};

export const codesEn = {
  channel_not_found: 'This notification channel no longer exists.',
  channel_name_exists: 'Another channel already has this name.',
  channel_type_invalid: 'Choose one of the listed channel types.',
  channel_type_immutable: 'The type of a channel cannot change. Create a new channel instead.',
  channel_config_invalid: 'The channel settings are not valid: {{detail}}',
  channel_event_invalid: 'Choose events from the list.',
  channel_private_target: 'The target is a private address. Allow private targets in the notification settings to use it.',
  channel_delivery_failed: 'The channel could not deliver the message: {{detail}}',
};
