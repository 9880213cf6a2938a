/**
 * Which process does what. `single` is the one process of WORKERS=1: it does everything.
 * With WORKERS>1 the `primary` migrates the database, runs the first start and owns the
 * background work (schedules, retry sweeps, offline detection, lease patrol...), while each
 * `worker` only serves HTTP; a worker that dies is forked again and loses no background work.
 * Singleton tasks still take a lock, so several service instances on one database stay correct.
 */
export type ProcessRole = 'single' | 'primary' | 'worker';

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
  const owner = role !== 'worker';
  return { migrate: owner, firstStart: owner, serveHttp: role !== 'primary', background: owner };
}
