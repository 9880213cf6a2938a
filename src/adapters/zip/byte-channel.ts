/**
 * A bounded queue of buffers from one producer to one async consumer. `push` hands back a promise
 * while the queue is over capacity, which is how a slow disk slows the upload down instead of the
 * upload piling up in memory.
 */
export class ByteChannel {
  private readonly queue: Buffer[] = [];
  private bytes = 0;
  private closed = false;
  private cancelled = false;
  private consumerWake: (() => void) | null = null;
  private producerWake: (() => void) | null = null;

  constructor(private readonly capacity: number) {}

  /** Queues a chunk; the chunk must not be modified afterwards. Resolves once there is room again. */
  push(chunk: Buffer): Promise<void> | undefined {
    if (this.cancelled || this.closed) return undefined;
    this.queue.push(chunk);
    this.bytes += chunk.length;
    this.wakeConsumer();
    if (this.bytes < this.capacity) return undefined;
    return new Promise((resolve) => {
      this.producerWake = resolve;
    });
  }

  /** No more chunks: the consumer finishes after draining the queue. */
  close(): void {
    this.closed = true;
    this.wakeConsumer();
  }

  /** Drops everything: the consumer's iteration throws, a waiting producer is released. */
  cancel(): void {
    this.cancelled = true;
    this.queue.length = 0;
    this.bytes = 0;
    this.wakeConsumer();
    this.wakeProducer();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer, void, undefined> {
    let drained = false;
    try {
      for (;;) {
        if (this.cancelled) throw new Error('channel cancelled');
        const next = this.queue.shift();
        if (next !== undefined) {
          this.bytes -= next.length;
          if (this.bytes < this.capacity) this.wakeProducer();
          yield next;
          continue;
        }
        if (this.closed) {
          drained = true;
          return;
        }
        await new Promise<void>((resolve) => {
          this.consumerWake = resolve;
        });
      }
    } finally {
      // A consumer that stops early must not leave the producer waiting for room forever.
      if (!drained) this.cancel();
    }
  }

  private wakeConsumer(): void {
    const wake = this.consumerWake;
    this.consumerWake = null;
    wake?.();
  }

  private wakeProducer(): void {
    const wake = this.producerWake;
    this.producerWake = null;
    wake?.();
  }
}
