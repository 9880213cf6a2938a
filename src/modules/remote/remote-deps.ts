/** What the remote-operation services need, passed explicitly (tests can hand in their own). */
import type { SshPool } from '../../adapters/ssh/ssh-pool.js';
import type { AuditService } from '../../platform/audit/audit.service.js';
import type { ServersService } from '../servers/index.js';
import type { StagingPaths } from '../staging/index.js';

export interface RemoteDeps {
  servers: Pick<ServersService, 'get' | 'connectionFor'>;
  ssh: Pick<SshPool, 'exec' | 'withSftp' | 'sftpUpload'>;
  audit: Pick<AuditService, 'record'>;
  staging: StagingPaths;
}
