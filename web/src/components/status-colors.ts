/**
 * The one map from a status to its colour, for badges and for status text (an error message, "3
 * failed of 120") alike. Only colour names, never shades: the theme's CSS variables pick the
 * shade per scheme (see app/theme.ts), which keeps every pair at 4.5:1 in light and dark —
 * `c="red.8"` would be #e03131 on dark #242424, 3.4:1.
 */
import type { MantineColor } from '@mantine/core';

export type Status =
  | 'online' | 'offline' | 'unknown' | 'running' | 'success' | 'completed' | 'partial' | 'failed' | 'cancelled' | 'skipped' | 'pending'
  | 'succeeded' | 'active' | 'recovered';

/** What a status means to an operator; each meaning has one colour. */
export type Tone = 'ok' | 'bad' | 'warn' | 'neutral' | 'busy';

export const TONE_COLOR: Record<Tone, MantineColor> = { ok: 'teal', bad: 'red', warn: 'orange', neutral: 'gray', busy: 'blue' };

export const STATUS_TONE: Record<Status, Tone> = {
  online: 'ok', success: 'ok', completed: 'ok', succeeded: 'ok', recovered: 'ok',
  offline: 'bad', failed: 'bad', active: 'bad',
  partial: 'warn',
  cancelled: 'neutral', skipped: 'neutral', pending: 'neutral', unknown: 'neutral',
  running: 'busy',
};

export function isStatus(s: string): s is Status {
  return s in STATUS_TONE;
}

/** The colour of a status (gray for one this console does not know). */
export function statusColor(s: string): MantineColor {
  return TONE_COLOR[isStatus(s) ? STATUS_TONE[s] : 'neutral'];
}

/** For text that states a status (`<Text c={toneText('bad')}>`): the scheme's readable shade of the colour. */
export const toneText = (tone: Tone): MantineColor => TONE_COLOR[tone];
