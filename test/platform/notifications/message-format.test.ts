/** The one message format: the messenger bot's English HTML unchanged, every form escaped, zh-CN in Chinese. */
import { describe, expect, it } from 'vitest';
import { render } from '../../../src/platform/notifications/message-format.js';

const server = { id: 1, name: '<b>evil</b> & co' };

describe('message format', () => {
  it('keeps the HTML the bot received before channels, names escaped', () => {
    expect(render({ kind: 'alert_cpu', server, value: 97.04, threshold: 80 }).html).toBe(
      '🔴 <b>CPU alert</b> on <b>&lt;b&gt;evil&lt;/b&gt; &amp; co</b>: 97% (threshold 80%)',
    );
    expect(render({ kind: 'offline', server: { id: 2, name: 'db-1' }, timeoutS: 90 }).html).toBe('🔴 <b>Server offline</b>: <b>db-1</b> sent no heartbeat for 90 s');
    expect(render({ kind: 'online', server: { id: 2, name: 'db-1' } }).html).toBe('🟢 <b>Server back online</b>: <b>db-1</b> is sending heartbeats again');
    expect(render({ kind: 'time_drift', server: { id: 2, name: 'db-1' }, driftS: -75, recovered: false }).html).toBe(
      '⏰ <b>Clock drift</b> on <b>db-1</b>: the agent clock is 75 s behind the service',
    );
    expect(render({ kind: 'recovery_mem', server: { id: 2, name: 'db-1' }, value: 12.5 }).html).toBe('🟢 <b>Memory recovered</b> on <b>db-1</b>: 12.5%');
    expect(render({ kind: 'infrastructure', component: 'db', up: false, systemName: 'Fleet <prod>' }).html).toBe(
      '⚠️ <b>Database connection lost</b> (Fleet &lt;prod&gt;): the service cannot reach its database',
    );
    expect(render({ kind: 'restart', systemName: 'fleet', version: '1.2' }).html).toBe('🔄 <b>fleet</b> started (version 1.2)');
    const script = render({
      kind: 'script_complete',
      label: 'a<b>',
      results: [{ server_id: 1, server_name: 'w', exit_code: 0, error: null, stdout: 'x<y\n', stderr: '', duration_ms: 5 }],
    });
    expect(script.html).toBe('<b>Script finished</b>: a&lt;b&gt;\n1/1 servers succeeded\n\n<b>w</b> — exit 0 (5 ms)\n<pre>x&lt;y</pre>');
  });

  it('gives a plain title, a plain body and a Markdown body with user data escaped', () => {
    const m = render({ kind: 'alert_disk', server: { id: 3, name: 'web_*1*' }, value: 95, threshold: 90 });
    expect(m).toMatchObject({ title: '🔴 Disk alert on web_*1*', text: '95% (threshold 90%)', kind: 'alert_disk', severity: 'critical' });
    const down = render({ kind: 'offline', server: { id: 3, name: 'web_*1*' }, timeoutS: 60 });
    expect(down.markdown).toBe('**web\\_\\*1\\*** sent no heartbeat for 60 s');
    expect(down.text).toBe('web_*1* sent no heartbeat for 60 s');
  });

  it('renders in Chinese for zh-CN', () => {
    const m = render({ kind: 'push_failed', batchId: 'b1', failed: 2, total: 5, servers: ['a', 'b'] }, 'zh-CN');
    expect(m.title).toBe('🔴 推送失败：5 台中 2 台失败');
    expect(m.text).toContain('批次 b1');
    expect(render({ kind: 'infrastructure', component: 'cache', up: true, systemName: 'fleet' }, 'zh-CN').title).toBe('✅ 缓存连接已恢复');
  });
});
