/**
 * Which process does what. `single` is the one process of WORKERS=1: it does everything.
 * With WORKERS>1 the `primary` only supervises (forks workers, replaces the dead ones); one
 * `owner` worker migrates the database, runs the first start, owns the background work
 * (schedules, retry sweeps, offline detection, lease patrol...) and serves HTTP, while each other
 * `worker` only serves HTTP. A dead owner is forked again as the owner, and its boot recovery
 * takes back the background work. Singleton tasks still take a lock, so several service instances
 * on one database stay correct.
 */
export type ProcessRole = 'single' | 'primary' | 'owner' | 'worker';

export interface RoleDuties {
  /** Applies database migrations before anything else touches the schema. */
  migrate: boolean;
  /** Creates the first administrator and the API key when they are missing. */
  firstStart: boolean;
  /** Listens for HTTP requests. */
  serveHttp: boolean;
  /** Runs boot recovery and the periodic background loops. */
  background: boolean;
}

export function dutiesOf(role: ProcessRole): RoleDuties {
  const owner = role === 'single' || role === 'owner';
  return { migrate: owner, firstStart: owner, serveHttp: role !== 'primary', background: owner };
}
