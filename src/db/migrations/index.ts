/** Every migration, by timestamped name. Imported statically so it works from `dist/` and in tests. */
import type { Migration } from 'kysely';
import * as m0001 from './20261122T0001-platform.js';
import * as m0002 from './20261122T0002-fleet.js';
import * as m0003 from './20261122T0003-push.js';
import * as m0004 from './20261122T0004-schedules-scripts.js';
import * as m0005 from './20261122T0005-alerts.js';
import * as m0008 from './20261122T0008-alert-counts.js';
import * as m0009 from './20261122T0009-notice-claims.js';
import * as m0010 from './20261124T0001-leases.js';
import * as m0011 from './20261124T0002-push-events.js';
import * as m0012 from './20261124T1601-totp-last-step.js';
import * as m0013 from './20261124T1602-refresh-families.js';
import * as m0014 from './20261126T1401-push-target-claims.js';
import * as m0015 from './20261126T1402-idempotency-keys.js';
import * as m0016 from './20261126T1403-ssh-reachability.js';
import * as m0017 from './20261126T1701-script-runs.js';
import * as m0018 from './20261126T1702-schedule-runs.js';
import * as m0019 from './20261126T1703-agent-heartbeats.js';
import * as m0020 from './20261126T1801-foreign-keys.js';
import * as m0021 from './20261126T1802-schedule-claim-token.js';
import * as m0022 from './20261126T1803-push-cancel-requests.js';
import * as m0023 from './20261126T1805-run-leases.js';
import * as m0024 from './20261127T0101-notification-channels.js';
import * as m0025 from './20261127T0102-notification-outbox.js';
import * as m0026 from './20261127T0103-scale-indexes.js';
import * as m0027 from './20261127T1801-alert-latest.js';
import * as m0028 from './20261128T0301-agent-latest-reading.js';
import * as m0029 from './20261128T1701-agent-heartbeats-prune-by-id.js';

export const migrations: Record<string, Migration> = {
  '20261122T0001-platform': m0001,
  '20261122T0002-fleet': m0002,
  '20261122T0003-push': m0003,
  '20261122T0004-schedules-scripts': m0004,
  '20261122T0005-alerts': m0005,
  '20261122T0008-alert-counts': m0008,
  '20261122T0009-notice-claims': m0009,
  '20261124T0001-leases': m0010,
  '20261124T0002-push-events': m0011,
  '20261124T1601-totp-last-step': m0012,
  '20261124T1602-refresh-families': m0013,
  '20261126T1401-push-target-claims': m0014,
  '20261126T1402-idempotency-keys': m0015,
  '20261126T1403-ssh-reachability': m0016,
  '20261126T1701-script-runs': m0017,
  '20261126T1702-schedule-runs': m0018,
  '20261126T1703-agent-heartbeats': m0019,
  '20261126T1801-foreign-keys': m0020,
  '20261126T1802-schedule-claim-token': m0021,
  '20261126T1803-push-cancel-requests': m0022,
  '20261126T1805-run-leases': m0023,
  '20261127T0101-notification-channels': m0024,
  '20261127T0102-notification-outbox': m0025,
  '20261127T0103-scale-indexes': m0026,
  '20261127T1801-alert-latest': m0027,
  '20261128T0301-agent-latest-reading': m0028,
  '20261128T1701-agent-heartbeats-prune-by-id': m0029,
};
