/** English wording of every notification (the messenger bot's HTML is unchanged from before channels). */
import { type Draft, pct, scriptBlocks, segmentsHtml } from './message-parts.js';
import type { RenderedEvent } from './notification-events.js';

const METRIC: Record<string, string> = { cpu: 'CPU', mem: 'Memory', disk: 'Disk' };
const COMPONENT = { db: 'Database', cache: 'Cache' } as const;

export function EN_TEXTS(e: RenderedEvent): Draft {
  switch (e.kind) {
    case 'alert_cpu':
    case 'alert_mem':
    case 'alert_disk':
      return {
        head: ['🔴 ', { b: `${METRIC[e.kind.slice(6)]} alert` }, ' on ', { b: e.server.name }],
        glue: ': ',
        body: [`${pct(e.value)} (threshold ${e.threshold ?? '?'}%)`],
      };
    case 'recovery_cpu':
    case 'recovery_mem':
    case 'recovery_disk':
      return { head: ['🟢 ', { b: `${METRIC[e.kind.slice(9)]} recovered` }, ' on ', { b: e.server.name }], glue: ': ', body: [pct(e.value)] };
    case 'offline':
      return { head: ['🔴 ', { b: 'Server offline' }], glue: ': ', body: [{ b: e.server.name }, ` sent no heartbeat for ${e.timeoutS ?? '?'} s`] };
    case 'online':
      return { head: ['🟢 ', { b: 'Server back online' }], glue: ': ', body: [{ b: e.server.name }, ' is sending heartbeats again'] };
    case 'time_drift': {
      const s = Math.round(Math.abs(e.driftS));
      if (e.recovered) return { head: ["🟢 ", { b: "Clock drift recovered" }, " on ", { b: e.server.name }], glue: ": ", body: [`${Math.round(e.driftS)} s`] };
      const ahead = e.driftS >= 0 ? 'ahead of' : 'behind';
      return { head: ['⏰ ', { b: 'Clock drift' }, ' on ', { b: e.server.name }], glue: ': ', body: [`the agent clock is ${s} s ${ahead} the service`] };
    }
    case 'infrastructure': {
      if (e.component === 'channel') {
        return e.up
          ? { head: ['✅ ', { b: 'Notification channel recovered' }], glue: ': ', body: [{ b: e.channelName }, ' delivers again'] }
          : {
              head: ['⚠️ ', { b: 'Notification channel failing' }],
              glue: ': ',
              body: [{ b: e.channelName }, ` keeps failing to deliver${e.error ? ` (${e.error})` : ''}`],
            };
      }
      const label = COMPONENT[e.component];
      return e.up
        ? { head: ['✅ ', { b: `${label} connection restored` }], glue: ' ', body: [`(${e.systemName})`] }
        : {
            head: ['⚠️ ', { b: `${label} connection lost` }],
            glue: ' ',
            body: [`(${e.systemName}): the service cannot reach its ${e.component === 'db' ? 'database' : 'cache'}`],
          };
    }
    case 'test':
      return { head: ['✅ ', { b: 'Test message' }, ` from ${e.systemName}`], glue: ': ', body: ['the channel ', { b: e.channelName }, ' delivers notifications'] };
    case 'restart':
      return { head: ['🔄 ', { b: e.systemName }, ' started'], glue: ' ', body: [`(version ${e.version})`] };
    case 'script_complete': {
      const ok = e.results.filter((r) => r.exit_code === 0 && !r.error).length;
      const head = [{ b: 'Script finished' }, `: ${e.label}`];
      const first = `${ok}/${e.results.length} servers succeeded`;
      const words = { error: 'error', exit: 'exit', more: (n: number) => `… and ${n} more` };
      return { head, glue: '\n', body: [first, ...scriptBlocks(e, words, segmentsHtml(head).length + 1 + first.length)] };
    }
    case 'push_failed':
      return {
        head: ['🔴 ', { b: 'Push failed' }, ` on ${e.failed} of ${e.total} servers`],
        glue: ': ',
        body: [e.servers.slice(0, 20).join(', ') + (e.servers.length > 20 ? ` and ${e.servers.length - 20} more` : ''), ` (batch ${e.batchId})`],
      };
  }
}
