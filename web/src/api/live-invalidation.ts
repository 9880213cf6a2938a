/** Refetches the given queries when the live socket reports what changes them (debounced). */
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type LiveMessage, liveSocket } from './socket';

export function useLiveInvalidation(keys: QueryKey[], matches: (m: LiveMessage) => boolean, delayMs = 500): void {
  const client = useQueryClient();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the keys are compared by value
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = liveSocket.onMessage((m) => {
      if (!matches(m) || timer) return;
      timer = setTimeout(() => {
        timer = null;
        for (const key of keys) void client.invalidateQueries({ queryKey: key });
      }, delayMs);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [client, JSON.stringify(keys), delayMs]);
}
