/**
 * The child's side of child-app.ts: announce itself as one JSON line on stdout (what
 * `startChildApp` reads), then serve until the parent closes stdin or sends SIGTERM, and close once.
 */
export function serveUntilStopped(info: { url: string; token: string; pid: number; databaseUrl?: string }, close: () => Promise<void>): void {
  process.stdout.write(`${JSON.stringify(info)}\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await close();
    process.exit(0);
  };
  process.stdin.on('end', () => void stop());
  process.stdin.resume();
  process.on('SIGTERM', () => void stop());
}
