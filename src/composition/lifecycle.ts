/**
 * Starting and stopping features in order. Start: every feature's per-process work, then (where
 * this process owns background work) each boot recovery, then the loops. Stop: the reverse, and
 * a failure of one feature never keeps the others from stopping.
 */
import type { Logger } from '../core/logger.js';
import type { Feature } from '../platform/feature.js';

export interface StartPlan {
  /** Run each feature's boot recovery. */
  background: boolean;
  /** Start the periodic loops (off in most tests: FLEET_BACKGROUND_JOBS=0). */
  loops: boolean;
}

export class FeatureRunner {
  private perProcess: Feature[] = [];
  private loops: Feature[] = [];

  constructor(
    private readonly features: Feature[],
    private readonly log: Logger,
  ) {}

  async start(plan: StartPlan): Promise<void> {
    for (const f of this.features) {
      await f.perProcess?.start();
      this.perProcess.push(f);
    }
    if (plan.background) {
      for (const f of this.features) {
        try {
          await f.onBoot?.();
        } catch (err) {
          // A failed recovery is retried by the feature's patrol; it must not keep the service down.
          this.log.error({ err, feature: f.name }, 'boot recovery failed');
        }
      }
    }
    if (plan.loops) {
      for (const f of this.features) {
        await f.background?.start();
        this.loops.push(f);
      }
    }
  }

  async stop(): Promise<void> {
    const loops = this.loops.reverse();
    const perProcess = this.perProcess.reverse();
    this.loops = [];
    this.perProcess = [];
    for (const f of loops) await this.settle(() => f.background?.stop(), f);
    for (const f of perProcess) await this.settle(() => f.perProcess?.stop(), f);
  }

  private async settle(fn: () => Promise<void> | void | undefined, f: Feature): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.log.warn({ err, feature: f.name }, 'error while stopping');
    }
  }
}
