/**
 * Passes on the latest value at most once every `intervalMs`: the first at once, later ones at
 * the end of the interval (only the newest survives). `cancel()` drops a value still waiting,
 * e.g. when the work it describes has finished and its final state is reported anyway.
 */
export interface Throttled<T> {
  push(value: T): void;
  cancel(): void;
}

export function throttleLatest<T>(intervalMs: number, emit: (value: T) => void, now: () => number = Date.now): Throttled<T> {
  let last = Number.NEGATIVE_INFINITY;
  let waiting: { value: T } | null = null;
  let timer: NodeJS.Timeout | null = null;
  const fire = (): void => {
    timer = null;
    if (!waiting) return;
    const { value } = waiting;
    waiting = null;
    last = now();
    emit(value);
  };
  return {
    push(value) {
      waiting = { value };
      if (timer) return;
      const wait = last + intervalMs - now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
      waiting = null;
    },
  };
}
