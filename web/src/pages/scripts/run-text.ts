/** Words for a run's stored values: the inline label and the service's per-server error texts. */
type T = (key: string, o?: Record<string, unknown>) => string;

export function runLabel(label: string | null, t: T): string {
  if (label === null) return '…';
  return label === 'inline script' ? t('scripts.inlineScript') : label;
}

/** The service's error texts for a server (see script-runner.ts), in the console's language. */
export function serverErrorText(error: string, t: T): string {
  if (error === 'Server not found') return t('scripts.errServerNotFound');
  if (error === 'The script was killed by a signal') return t('scripts.errKilled');
  if (error === 'The script could not be run') return t('scripts.errCannotRun');
  const timeout = /^Timed out after (\d+) s$/.exec(error);
  if (timeout) return t('scripts.errTimedOut', { seconds: Number(timeout[1]) });
  // SSH connection errors arrive as they are (host names, addresses).
  return error;
}
