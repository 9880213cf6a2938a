/** The notification channels area in Simplified Chinese: exactly the keys of channels.en.ts. */
import type { Translated } from '../translated';
import type { codesEn, en } from './channels.en';

export const zhCN: Translated<typeof en> = {
  title: '通知渠道',
  intro: '除消息机器人外，通知还可以发送到这些渠道。每个渠道接收其订阅的事件，仅限带有所选标签的服务器（不选则为全部服务器）。',
  add: '添加渠道',
  edit: '编辑 {{name}}',
  empty: '还没有渠道。添加一个，把通知发送到钉钉、企业微信、邮件、Webhook 等。',
  type: '类型',
  name: '名称',
  enabled: '启用',
  enabledNamed: '启用：{{name}}',
  events: '事件',
  eventsHelp: '此渠道接收的事件。“通知”页面上的开关仍然优先生效。',
  noEvents: '无事件',
  tags: '服务器标签',
  tagsHelp: '仅发送带有其中任一标签的服务器的事件。留空表示全部服务器。',
  allServers: '全部服务器',
  secretSet: '已设置。留空则保持不变。',
  secretUnset: '未设置。',
  removeSecret: '移除{{name}}',
  headersHelp: '每行一个请求头：名称: 值',
  listHelp: '用逗号或回车分隔多个值。',
  sendTest: '发送测试',
  sendTestNamed: '发送测试：{{name}}',
  testOk: '已送达，用时 {{ms}} 毫秒',
  testFailed: '测试失败：{{detail}}',
  lastTest: '上次测试',
  notTested: '尚未测试',
  editNamed: '编辑 {{name}}',
  deleteNamed: '删除 {{name}}',
  deleteTitle: '删除渠道 {{name}}？',
  deleteMessage: '通知将不再发送到 {{name}}，其配置和密钥会被删除。',
  deleted: '渠道已删除。',
  saved: '渠道已保存。',
  types: {
    dingtalk: '钉钉', wecom: '企业微信', feishu: '飞书', email: '邮件（SMTP）', webhook: 'Webhook', messenger: '消息机器人',
    serverchan: 'Server 酱', pushplus: 'PushPlus', bark: 'Bark', ntfy: 'ntfy', gotify: 'Gotify', slack: 'Slack', discord: 'Discord',
  },
  eventNames: {
    alert_cpu: 'CPU 告警', alert_mem: '内存告警', alert_disk: '磁盘告警', recovery_cpu: 'CPU 恢复', recovery_mem: '内存恢复',
    recovery_disk: '磁盘恢复', offline: '服务器离线', online: '服务器恢复在线', time_drift: '时钟偏差', infrastructure: '服务健康',
    restart: '服务重启', script_complete: '脚本执行完成', push_failed: '推送失败',
  },
  fields: {
    webhook_url: 'Webhook 地址', secret: '签名密钥', at_mobiles: '@ 手机号', mentioned_mobile_list: '@ 手机号', host: 'SMTP 服务器',
    port: '端口', security: '加密方式', username: '用户名', password: '密码', from: '发件人', to: '收件人', url: '地址', method: '请求方法',
    body_format: '请求体格式', body_template: '请求体模板', headers: '请求头', api_base: 'API 地址', bot_token: '机器人令牌', chat_id: '聊天 ID',
    send_key: 'SendKey', token: '令牌', topic: '主题', server_url: '服务器地址', device_key: '设备密钥', group: '分组',
    access_token: '访问令牌', app_token: '应用令牌',
  },
  options: {
    tls: 'TLS（端口 465）', starttls: 'STARTTLS', none: '无（明文）', json: 'JSON', form: '表单',
    POST: 'POST', PUT: 'PUT', PATCH: 'PATCH', GET: 'GET',
  },
};

export const codesZhCN: Translated<typeof codesEn> = {
  channel_not_found: '该通知渠道已不存在。',
  channel_name_exists: '已有同名的渠道。',
  channel_type_invalid: '请选择列表中的渠道类型。',
  channel_type_immutable: '渠道创建后不能更改类型，请新建一个渠道。',
  channel_config_invalid: '渠道配置无效：{{detail}}',
  channel_event_invalid: '请从列表中选择事件。',
  channel_private_target: '目标是内网地址。如需使用，请在通知设置中允许内网目标。',
  channel_delivery_failed: '渠道未能送达消息：{{detail}}',
};
