/**
 * The console's areas, grouped by task: what operators come for most, first. `built` marks the
 * pages this release has; the others are honest placeholders (the API already does their work).
 */
import {
  IconAlertTriangle, IconBell, IconCalendarTime, IconChartLine, IconCloudUpload, IconFileCode, IconFolder, IconHistory, IconKey,
  IconLayoutDashboard, IconListCheck, IconRefresh, IconServer, IconSettings, IconShieldLock, IconTags, IconUsers,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';

export interface NavItem {
  /** i18n key under `nav.` */
  key: string;
  path: string;
  icon: ComponentType<{ size?: number | string; stroke?: number }>;
  built: boolean;
}

export interface NavGroup {
  key: string;
  items: NavItem[];
}

export const NAV: NavGroup[] = [
  { key: 'overview', items: [{ key: 'dashboard', path: '/', icon: IconLayoutDashboard, built: true }] },
  {
    key: 'fleet',
    items: [
      { key: 'servers', path: '/servers', icon: IconServer, built: true },
      { key: 'tags', path: '/tags', icon: IconTags, built: false },
    ],
  },
  {
    key: 'deploy',
    items: [
      { key: 'push', path: '/push', icon: IconCloudUpload, built: true },
      { key: 'staging', path: '/staging', icon: IconFolder, built: false },
      { key: 'history', path: '/history', icon: IconHistory, built: true },
      { key: 'retries', path: '/retries', icon: IconRefresh, built: true },
    ],
  },
  {
    key: 'automate',
    items: [
      { key: 'schedules', path: '/schedules', icon: IconCalendarTime, built: false },
      { key: 'scripts', path: '/scripts', icon: IconFileCode, built: false },
    ],
  },
  {
    key: 'observe',
    items: [
      { key: 'alerts', path: '/alerts', icon: IconAlertTriangle, built: false },
      { key: 'monitoring', path: '/monitoring', icon: IconChartLine, built: false },
    ],
  },
  {
    key: 'admin',
    items: [
      { key: 'settings', path: '/settings', icon: IconSettings, built: false },
      { key: 'notifications', path: '/notifications', icon: IconBell, built: false },
      { key: 'allowlist', path: '/allowlist', icon: IconShieldLock, built: false },
      { key: 'credentials', path: '/credentials', icon: IconKey, built: false },
      { key: 'administrators', path: '/administrators', icon: IconUsers, built: false },
      { key: 'audit', path: '/audit', icon: IconListCheck, built: false },
    ],
  },
];

export const PLACEHOLDERS = NAV.flatMap((g) => g.items).filter((i) => !i.built);
