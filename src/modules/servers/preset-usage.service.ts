/**
 * Which servers use a preset. The presets modules own the presets; this module owns the servers
 * table, so the answer is read here, after the preset is known to exist (404 otherwise).
 */
import { NotFoundError } from '../../core/errors.js';
import type { PresetUsageRepository } from './preset-usage.repository.js';
import type { PresetKind, PresetServer, PresetUsage } from './preset-usage.schemas.js';
import type { PresetSources } from './servers.targets.js';

export class PresetUsageService {
  constructor(
    private readonly repo: PresetUsageRepository,
    private readonly presets: PresetSources,
  ) {}

  async servers(kind: PresetKind, presetId: number): Promise<PresetServer[]> {
    const exists =
      kind === 'password'
        ? await this.presets.passwordPresets.findById(presetId)
        : await this.presets.sshKeyPresets.findById(presetId);
    if (!exists) {
      throw kind === 'password'
        ? new NotFoundError('Preset not found', 'preset_not_found')
        : new NotFoundError('SSH key preset not found', 'ssh_key_preset_not_found');
    }
    return this.repo.serversUsing(kind, presetId);
  }

  async usage(): Promise<PresetUsage> {
    const [password_presets, ssh_key_presets] = await Promise.all([this.repo.counts('password'), this.repo.counts('ssh_key')]);
    return { password_presets, ssh_key_presets };
  }
}
