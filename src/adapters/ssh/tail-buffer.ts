/**
 * Keeps only the last `limit` bytes written to it. Remote commands can print without bound
 * (a runaway `journalctl`, a log tail), and callers care about the end — where errors are —
 * so memory stays O(limit) however much arrives.
 */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Bytes dropped from the front so far. */
  dropped = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    if (this.limit <= 0) {
      this.dropped += chunk.length;
      return;
    }
    if (chunk.length >= this.limit) {
      this.dropped += this.size + chunk.length - this.limit;
      this.chunks = [chunk.subarray(chunk.length - this.limit)];
      this.size = this.limit;
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - this.chunks[0].length >= this.limit) {
      const head = this.chunks.shift()!;
      this.size -= head.length;
      this.dropped += head.length;
    }
  }

  toBuffer(): Buffer {
    const all = Buffer.concat(this.chunks, this.size);
    return all.length > this.limit ? all.subarray(all.length - this.limit) : all;
  }

  /** UTF-8; when the front was cut, skip continuation bytes so no replacement char leads. */
  toString(): string {
    let buf = this.toBuffer();
    if (this.dropped > 0 || buf.length < this.size) {
      let i = 0;
      while (i < buf.length && i < 4 && (buf[i] & 0xc0) === 0x80) i++;
      buf = buf.subarray(i);
    }
    return buf.toString('utf8');
  }
}
