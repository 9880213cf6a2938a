/** Simplified Chinese wording of every notification (`notify_language` = zh-CN). */
import { type Draft, pct, scriptBlocks, segmentsHtml } from './message-parts.js';
import type { RenderedEvent } from './notification-events.js';

const METRIC: Record<string, string> = { cpu: 'CPU', mem: '内存', disk: '磁盘' };
const COMPONENT = { db: '数据库', cache: '缓存' } as const;

export function ZH_TEXTS(e: RenderedEvent): Draft {
  switch (e.kind) {
    case 'alert_cpu':
    case 'alert_mem':
    case 'alert_disk':
      return {
        head: ['🔴 ', { b: `${METRIC[e.kind.slice(6)]}告警` }, '：', { b: e.server.name }],
        glue: ' ',
        body: [`${pct(e.value)}（阈值 ${e.threshold ?? '?'}%）`],
      };
    case 'recovery_cpu':
    case 'recovery_mem':
    case 'recovery_disk':
      return { head: ['🟢 ', { b: `${METRIC[e.kind.slice(9)]}已恢复` }, '：', { b: e.server.name }], glue: ' ', body: [pct(e.value)] };
    case 'offline':
      return { head: ['🔴 ', { b: '服务器离线' }], glue: '：', body: [{ b: e.server.name }, ` 已 ${e.timeoutS ?? '?'} 秒没有心跳`] };
    case 'online':
      return { head: ['🟢 ', { b: '服务器恢复在线' }], glue: '：', body: [{ b: e.server.name }, ' 已恢复发送心跳'] };
    case 'time_drift': {
      const s = Math.round(Math.abs(e.driftS));
      if (e.recovered) return { head: ['🟢 ', { b: '时钟偏差已恢复' }, '：', { b: e.server.name }], glue: ' ', body: [`${s} 秒`] };
      const way = e.driftS >= 0 ? '快' : '慢';
      return { head: ['⏰ ', { b: '时钟偏差' }, '：', { b: e.server.name }], glue: ' ', body: [`客户端时钟比服务端${way} ${s} 秒`] };
    }
    case 'infrastructure': {
      if (e.component === 'channel') {
        return e.up
          ? { head: ['✅ ', { b: '通知渠道已恢复' }], glue: '：', body: [{ b: e.channelName }, ' 已恢复投递'] }
          : { head: ['⚠️ ', { b: '通知渠道投递失败' }], glue: '：', body: [{ b: e.channelName }, ` 连续投递失败${e.error ? `（${e.error}）` : ''}`] };
      }
      const label = COMPONENT[e.component];
      return e.up
        ? { head: ['✅ ', { b: `${label}连接已恢复` }], glue: ' ', body: [`（${e.systemName}）`] }
        : { head: ['⚠️ ', { b: `${label}连接中断` }], glue: ' ', body: [`（${e.systemName}）：服务无法连接${label}`] };
    }
    case 'test':
      return { head: ['✅ ', { b: '测试消息' }, `（${e.systemName}）`], glue: '：', body: ['通知渠道 ', { b: e.channelName }, ' 可以正常投递'] };
    case 'restart':
      return { head: ['🔄 ', { b: e.systemName }, ' 已启动'], glue: ' ', body: [`（版本 ${e.version}）`] };
    case 'script_complete': {
      const ok = e.results.filter((r) => r.exit_code === 0 && !r.error).length;
      const head = [{ b: '脚本执行完成' }, `：${e.label}`];
      const first = `${ok}/${e.results.length} 台服务器成功`;
      const words = { error: '错误', exit: '退出码', more: (n: number) => `… 另有 ${n} 台` };
      return { head, glue: '\n', body: [first, ...scriptBlocks(e, words, segmentsHtml(head).length + 1 + first.length)] };
    }
    case 'push_failed':
      return {
        head: ['🔴 ', { b: '推送失败' }, `：${e.total} 台中 ${e.failed} 台失败`],
        glue: '：',
        body: [e.servers.slice(0, 20).join('、') + (e.servers.length > 20 ? ` 等 ${e.servers.length} 台` : ''), `（批次 ${e.batchId}）`],
      };
  }
}
