/** The secrets that can be revealed, each through its own endpoint (each asks for the password). */
import { notificationsApi } from '../../api/resources/notifications';
import { settingsApi } from '../../api/resources/settings';
import type { Revealer } from './SettingField';

export const REVEALERS: Record<string, Revealer> = {
  api_key: (pw) => settingsApi.revealApiKey(pw),
  messenger_bot_token: (pw) => notificationsApi.revealToken('default', pw),
  messenger_offline_bot_token: (pw) => notificationsApi.revealToken('offline', pw),
};
