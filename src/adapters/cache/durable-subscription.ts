/**
 * A subscription that survives the cache being down when it is made: the first attempt may
 * fail (Redis unreachable at start-up), so it keeps retrying in the background with back-off
 * instead of failing the caller. Once made, the adapter itself re-subscribes after reconnects.
 */
import type { Cache, Unsubscribe } from './cache.js';

export interface RetryLogger {
  warn(obj: Record<string, unknown>, msg?: string): void;
  info(obj: Record<string, unknown>, msg?: string): void;
}

/** Resolves once the first attempt is over (made or failed), so a healthy start is subscribed on return. */
export async function subscribeDurably(
  cache: Cache,
  channel: string,
  handler: (message: string) => void,
  log: RetryLogger,
  maxDelayMs = 5_000,
): Promise<Unsubscribe> {
  let stopped = false;
  let unsubscribe: Unsubscribe | null = null;
  let timer: NodeJS.Timeout | null = null;
  let failures = 0;

  const attempt = async (): Promise<void> => {
    if (stopped) return;
    try {
      const off = await cache.subscribe(channel, handler);
      if (stopped) return void (await off());
      unsubscribe = off;
      if (failures > 0) log.info({ channel }, 'cache subscription established after retries');
    } catch (err) {
      if (failures++ === 0) log.warn({ channel, err }, 'cache subscription failed; retrying in the background');
      timer = setTimeout(() => void attempt(), Math.min(maxDelayMs, 250 * 2 ** Math.min(failures, 5)));
      timer.unref();
    }
  };
  await attempt();

  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await unsubscribe?.().catch(() => {});
  };
}
