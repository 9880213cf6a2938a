/**
 * System settings: the listing with masking, single reads with defaults,
 * the PUT rules in their order, and the API key reveal and rotation. Every write goes through
 * `RuntimeSettings.set`, which applies it here at once and announces it to the other workers.
 */
import type { Actor } from '../../core/actor.js';
import { generateApiKey } from '../../core/crypto.js';
import type { AdminRow } from '../../db/types.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { redactUrl } from '../../db/database.js';
import type { AuditService } from '../audit/audit.service.js';
import type { RuntimeSettings } from './runtime-settings.js';
import type { SecretSettings } from './secret-settings.js';
import {
  DEFAULTS,
  ENUM_RULES,
  INTEGER_RULES,
  IMMUTABLE_KEYS,
  MUTABLE_KEYS,
  PATROL_ENV_KEYS,
  SENSITIVE_KEYS,
  isImmutable,
} from './setting-keys.js';
import type { PutSettingBody, PutSettingResponse, RevealResponse, SettingView } from './settings.schemas.js';


export interface SettingsServiceDeps {
  settings: RuntimeSettings;
  secrets: SecretSettings;
  audit: AuditService;
  log: Logger;
  databaseUrl: string;
  /** Shown as `updated_at` of values that come from the environment rather than a row. */
  startedAt: string;
  /** Mirrors the default bot's credentials to the host patrol script; a failure is only logged. */
  syncPatrolEnv(token: string, chatId: string): Promise<void>;
  /** The login's check of an admin's own password (400 wrong, 429 locked out; counted and audited). */
  requireCurrentPassword(actor: Actor, admin: AdminRow, password: string, endpoint: string): Promise<void>;
}

/** Keys shown in a listing with this value, never a stored row (secrets live in DATA_DIR/env). */
const ENV_ONLY_KEYS = new Set(['secret_key', 'encryption_key', 'database_url']);

function shortKey(key: string): string {
  return JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);
}

export class SettingsService {
  constructor(private readonly d: SettingsServiceDeps) {}

  /**
   * The API reads settings from the database, not only from this worker's copy: a change made
   * through another worker reaches this one over pub/sub a moment later, and an operator who
   * saves and reads back must see what was saved (the cluster soak saw the previous value, or a
   * 404 for a key just created, in 7 of 479 reads). The re-read also refreshes the copy.
   */
  async list(): Promise<SettingView[]> {
    await this.d.settings.resync();
    const keys = new Set<string>([...IMMUTABLE_KEYS, ...Object.keys(DEFAULTS)]);
    for (const k of this.d.settings.keys()) if (MUTABLE_KEYS.has(k)) keys.add(k);
    const views: SettingView[] = [];
    for (const k of [...keys].sort()) {
      const v = this.view(k);
      if (v) views.push(v);
    }
    return views;
  }

  async get(key: string): Promise<SettingView> {
    await this.d.settings.resync();
    const v = MUTABLE_KEYS.has(key) || isImmutable(key) ? this.view(key) : null;
    if (!v) throw new NotFoundError(`Setting ${shortKey(key)} not found`, 'setting_unknown');
    return v;
  }

  /**
   * PUT /{key}, in this order: 403 for an immutable or unknown key; a blank sensitive value keeps
   * the stored one (400 when there is none); 400 for a value outside an enum or integer range;
   * then stored, applied and announced to the other workers, audited `update_setting`.
   */
  async update(actor: Actor, key: string, input: PutSettingBody['value']): Promise<PutSettingResponse> {
    if (isImmutable(key)) throw new ForbiddenError(`Setting ${shortKey(key)} is immutable`, 'setting_immutable');
    if (!MUTABLE_KEYS.has(key)) throw new ForbiddenError(`Setting ${shortKey(key)} is not a known mutable setting`, 'setting_unknown');

    let value: string | null = input === null ? null : String(input);
    if (SENSITIVE_KEYS.has(key)) {
      if (value === null || value.trim() === '') {
        const current = this.d.settings.get(key);
        if (current !== null && current !== '') return this.view(key)!;
        throw new BadRequestError(`A value is required for ${key}`, 'setting_invalid_value');
      }
      value = value.trim();
    }
    const allowed = ENUM_RULES[key];
    if (allowed) {
      const v = value?.trim() ?? '';
      if (!allowed.includes(v)) throw new BadRequestError(`Invalid value for ${key}: must be one of ${allowed.join(', ')}`, 'setting_invalid_value');
      value = v;
    }
    const range = INTEGER_RULES[key];
    if (range) {
      const v = value?.trim() ?? '';
      const n = /^[+-]?\d{1,12}$/.test(v) ? Number(v) : NaN;
      const off = range.zeroOff === true && n === 0;
      if (!Number.isInteger(n) || (!off && (n < range.min || n > range.max))) {
        const zero = range.zeroOff ? '0 (off) or ' : '';
        throw new BadRequestError(`Invalid value for ${key}: must be ${zero}an integer between ${range.min} and ${range.max}`, 'setting_invalid_value');
      }
      value = String(n);
    }

    if (value === null) await this.d.settings.set(key, null);
    else await this.d.secrets.write(key, value);
    await this.d.audit.record(actor, 'update_setting', { type: 'setting', id: key, detail: `key=${key}` });
    if (PATROL_ENV_KEYS.has(key)) await this.syncPatrolEnv();
    return { key, value };
  }

  /** With `currentPassword` (the console sends it), a wrong one is refused before anything is read. */
  async revealApiKey(actor: Actor, admin?: AdminRow, currentPassword?: string): Promise<RevealResponse> {
    if (currentPassword !== undefined && admin) {
      await this.d.requireCurrentPassword(actor, admin, currentPassword, 'POST /api/settings/api-key/reveal');
    }
    const value = this.d.secrets.read('api_key');
    if (value === null) throw new NotFoundError('API key not stored', 'secret_not_stored');
    await this.d.audit.record(actor, 'reveal_api_key', { type: 'setting', id: 'api_key' });
    return { key: 'api_key', value };
  }

  /**
   * A new API key, the old one refused at once: here as soon as it is stored, on the other
   * workers when the change announcement reaches them (and within a second without it).
   */
  async rotateApiKey(actor: Actor, admin: AdminRow, currentPassword: string): Promise<RevealResponse> {
    await this.d.requireCurrentPassword(actor, admin, currentPassword, 'POST /api/settings/api-key/rotate');
    const value = generateApiKey();
    await this.d.secrets.write('api_key', value);
    await this.d.audit.record(actor, 'rotate_api_key', { type: 'setting', id: 'api_key' });
    return { key: 'api_key', value };
  }

  /** The Setting object of a key as this worker sees it, or null when it has no row and no default. */
  private view(key: string): SettingView | null {
    if (ENV_ONLY_KEYS.has(key)) {
      const isUrl = key === 'database_url';
      return {
        key,
        value: isUrl ? redactUrl(this.d.databaseUrl) : '',
        value_set: isUrl ? null : true,
        updated_at: this.d.startedAt,
      };
    }
    const entry = this.d.settings.entry(key);
    if (!entry) {
      const fallback = DEFAULTS[key];
      return fallback === undefined ? null : { key, value: fallback, value_set: null, updated_at: this.d.startedAt };
    }
    if (SENSITIVE_KEYS.has(key)) {
      return { key, value: '', value_set: entry.value !== null && entry.value !== '', updated_at: entry.updated_at };
    }
    return { key, value: entry.value, value_set: null, updated_at: entry.updated_at };
  }

  private async syncPatrolEnv(): Promise<void> {
    try {
      const token = this.d.secrets.read('messenger_bot_token') ?? '';
      const chatId = this.d.settings.get('messenger_chat_id') ?? '';
      await this.d.syncPatrolEnv(token, chatId);
    } catch (err) {
      // Rule 7: the setting is saved either way; only the mirror for the host script failed.
      this.d.log.warn({ err }, 'could not sync patrol env file');
    }
  }
}
