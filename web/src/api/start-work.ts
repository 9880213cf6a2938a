/**
 * Anything that starts work (a push, a retry, a cancel, a delete, a verify) is sent once: the
 * control is disabled from the first click until the answer, a second click meanwhile (a double
 * click lands before React re-renders) is ignored, and the request carries an `Idempotency-Key`
 * made for this one action, so even a request the network repeats starts nothing twice: the
 * service answers a repeated key with the first answer.
 */
import { useMutation } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';

/**
 * A fresh key per user action. `crypto.randomUUID` exists only on secure origins (https,
 * localhost); a console served over plain http on a LAN still has `getRandomValues`.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface StartWorkOptions<TData, TVars> {
  /** The request; pass `key` on as its Idempotency-Key. `vars` are what `start` was called with. */
  work: (key: string, vars: TVars) => Promise<TData>;
  onSuccess?: (data: TData, vars: TVars) => unknown;
  onError?: (error: Error, vars: TVars) => unknown;
}

export function useStartWork<TData, TVars = void>(o: StartWorkOptions<TData, TVars>) {
  // Set synchronously on the first click: react-query's pending state arrives a render later.
  const sending = useRef(false);
  const m = useMutation<TData, Error, { vars: TVars; key: string }>({
    mutationFn: ({ vars, key }) => o.work(key, vars),
    onSuccess: (data, v) => o.onSuccess?.(data, v.vars),
    onError: (err, v) => o.onError?.(err, v.vars),
    onSettled: () => {
      sending.current = false;
    },
  });
  const { mutate } = m;
  const start = useCallback(
    (vars: TVars) => {
      if (sending.current) return;
      sending.current = true;
      mutate({ vars, key: newIdempotencyKey() });
    },
    [mutate],
  );
  return {
    start,
    /** True from the first click until the answer: disable the control. */
    pending: m.isPending,
    error: m.error,
    data: m.data,
    isSuccess: m.isSuccess,
    /** What the action in flight (or the last one) was started with. */
    variables: m.variables?.vars,
    reset: m.reset,
  };
}
