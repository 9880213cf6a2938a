/**
 * One server's live output: chunks from ssh are decoded (a UTF-8 character split across two
 * chunks stays whole), gathered for a moment, and handed on as `script_output` messages, so a
 * script printing a line at a time sends a message per pause, not one per byte. Streamed output
 * is capped per server; past the cap one `truncated` message ends the stream (the final tails
 * still come with the server's end message).
 */
import { StringDecoder } from 'node:string_decoder';

export const STREAM_CAP_BYTES = 256 * 1024;
const FLUSH_MS = 200;
const FLUSH_BYTES = 16 * 1024;

type Stream = 'stdout' | 'stderr';
export type EmitOutput = (m: { stream: Stream; data: string; truncated?: boolean }) => void;

export class OutputPump {
  private readonly decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
  private pending: { stream: Stream; data: string } | null = null;
  private pendingBytes = 0;
  private sent = 0;
  private capped = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly emit: EmitOutput,
    private readonly cap = STREAM_CAP_BYTES,
  ) {}

  push(stream: Stream, chunk: Buffer): void {
    if (this.capped) return;
    if (this.sent + this.pendingBytes + chunk.length > this.cap) {
      const room = Math.max(0, this.cap - this.sent - this.pendingBytes);
      if (room > 0) this.add(stream, this.decoders[stream].write(chunk.subarray(0, room)), room);
      this.flush();
      this.capped = true;
      this.emit({ stream, data: '', truncated: true });
      return;
    }
    this.add(stream, this.decoders[stream].write(chunk), chunk.length);
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Sends what is gathered (and what the decoders still hold, at the end). */
  flush(end = false): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (end && !this.capped) {
      for (const s of ['stdout', 'stderr'] as const) {
        const rest = this.decoders[s].end();
        if (rest) this.add(s, rest, 0);
      }
    }
    if (this.pending?.data) this.emit(this.pending);
    this.sent += this.pendingBytes;
    this.pending = null;
    this.pendingBytes = 0;
  }

  private add(stream: Stream, text: string, bytes: number): void {
    if (this.pending && this.pending.stream !== stream) this.flush();
    this.pending = { stream, data: (this.pending?.data ?? '') + text };
    this.pendingBytes += bytes;
  }
}
