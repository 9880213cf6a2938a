/** A pino destination kept in memory, so tests can assert what the app logged (and did not). */
import { Writable } from 'node:stream';

export interface LogCapture {
  stream: Writable;
  text(): string;
}

export function captureLogs(): LogCapture {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  return { stream, text: () => chunks.join('') };
}
