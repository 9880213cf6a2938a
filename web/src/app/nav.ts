/**
 * The console's areas, grouped by task: what operators come for most, first..
 */
import {
  IconAlertTriangle, IconBell,
  IconBroadcast, IconCalendarTime, IconChartLine, IconCloudUpload, IconFileCode, IconFolder, IconHistory, IconKey,
  IconLayoutDashboard, IconListCheck, IconRefresh, IconServer, IconSettings, IconShieldLock, IconTags, IconUsers,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';

export interface NavItem {
  /** i18n key under `nav.` */
  key: string;
  path: string;
  icon: ComponentType<{ size?: number | string; stroke?: number }>;
}

export interface NavGroup {
  key: string;
  items: NavItem[];
}

export const NAV: NavGroup[] = [
  { key: 'overview', items: [{ key: 'dashboard', path: '/', icon: IconLayoutDashboard }] },
  {
    key: 'fleet',
    items: [
      { key: 'servers', path: '/servers', icon: IconServer },
      { key: 'tags', path: '/tags', icon: IconTags },
    ],
  },
  {
    key: 'deploy',
    items: [
      { key: 'push', path: '/push', icon: IconCloudUpload },
      { key: 'staging', path: '/staging', icon: IconFolder },
      { key: 'history', path: '/history', icon: IconHistory },
      { key: 'retries', path: '/retries', icon: IconRefresh },
    ],
  },
  {
    key: 'automate',
    items: [
      { key: 'schedules', path: '/schedules', icon: IconCalendarTime },
      { key: 'scripts', path: '/scripts', icon: IconFileCode },
    ],
  },
  {
    key: 'observe',
    items: [
      { key: 'alerts', path: '/alerts', icon: IconAlertTriangle },
      { key: 'monitoring', path: '/monitoring', icon: IconChartLine },
    ],
  },
  {
    key: 'admin',
    items: [
      { key: 'settings', path: '/settings', icon: IconSettings },
      { key: 'notifications', path: '/notifications', icon: IconBell },
      { key: 'channels', path: '/channels', icon: IconBroadcast },
      { key: 'allowlist', path: '/allowlist', icon: IconShieldLock },
      { key: 'credentials', path: '/credentials', icon: IconKey },
      { key: 'administrators', path: '/administrators', icon: IconUsers },
      { key: 'audit', path: '/audit', icon: IconListCheck },
    ],
  },
];

export const NAV_ITEMS = NAV.flatMap((g) => g.items);
