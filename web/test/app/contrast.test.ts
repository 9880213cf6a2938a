/**
 * Every status colour pair meets WCAG AA (4.5:1) in both schemes, computed from the console's own
 * theme: Mantine's CSS variables with the console's overrides applied, resolved down to colours.
 * Pairs: a badge's word on its tint (over the page), and status text on the page and on a card.
 */
import { DEFAULT_THEME, darken, defaultCssVariablesResolver, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, themeFor } from '../../src/app/theme';
import { STATUS_TONE, statusColor, TONE_COLOR } from '../../src/components/status-colors';

type Rgba = [number, number, number, number];
type Scheme = 'light' | 'dark';

const theme = mergeMantineTheme(DEFAULT_THEME, themeFor('Close'));

function variables(scheme: Scheme): Record<string, string> {
  const base = defaultCssVariablesResolver(theme);
  const ours = cssVariablesResolver(theme);
  return { ...base.variables, ...base[scheme], ...ours.variables, ...ours[scheme] };
}

function parse(value: string, vars: Record<string, string>): Rgba {
  const v = value.trim();
  const ref = /^var\((--[\w-]+)\)$/.exec(v);
  if (ref) {
    const next = vars[ref[1]];
    if (next === undefined) throw new Error(`undefined CSS variable ${ref[1]}`);
    return parse(next, vars);
  }
  if (v === 'black') return [0, 0, 0, 1];
  if (v === 'white') return [255, 255, 255, 1];
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(v);
  if (short) return parse(`#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`, vars);
  const hex = /^#([0-9a-f]{6})$/i.exec(v);
  if (hex) return [0, 2, 4].map((i) => Number.parseInt(hex[1].slice(i, i + 2), 16)).concat(1) as Rgba;
  const rgb = /^rgba?\(([^)]+)\)$/.exec(v);
  if (rgb) {
    const [r, g, b, a = 1] = rgb[1].split(',').map(Number);
    return [r, g, b, a];
  }
  const mix = /^color-mix\(in srgb, (.+) (\d+)%, (.+)\)$/.exec(v);
  if (mix) {
    const a = parse(mix[1], vars);
    const b = parse(mix[3], vars);
    const p = Number(mix[2]) / 100;
    return [0, 1, 2].map((i) => a[i] * p + b[i] * (1 - p)).concat(1) as Rgba;
  }
  throw new Error(`cannot read colour ${v}`);
}

/** A translucent colour as seen over an opaque one. */
const over = (top: Rgba, bottom: Rgba): Rgba => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1) as Rgba;

function luminance([r, g, b]: Rgba): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const round = (n: number) => Math.round(n * 100) / 100;

describe('status colour contrast', () => {
  it('reads the colours the way the theme states them (sanity: the failure on the batch page)', () => {
    // Mantine's own red.8 on the dark page: the pair that was too faint.
    expect(contrast(parse('#e03131', {}), parse('#242424', {}))).toBeCloseTo(3.44, 2);
    expect(round(contrast(parse('#000000', {}), parse('#ffffff', {})))).toBe(21);
    // darken() gives rgba(); the dark badge tint is built with it.
    expect(parse(darken('#c92a2a', 0.5), {})[3]).toBe(1);
  });

  const colours = [...new Set(Object.values(TONE_COLOR))];
  const cases = (['light', 'dark'] as Scheme[]).flatMap((scheme) => colours.map((c) => [scheme, c] as const));

  it.each(cases)('%s scheme, %s: badge word on its tint, and status text on the page and on a card', (scheme, c) => {
    const vars = variables(scheme);
    const body = parse('var(--mantine-color-body)', vars);
    const card = scheme === 'dark' ? parse('var(--mantine-color-dark-6)', vars) : body;
    const pairs = {
      badge: contrast(parse(`var(--mantine-color-${c}-light-color)`, vars), over(parse(`var(--mantine-color-${c}-light)`, vars), body)),
      textOnPage: contrast(parse(`var(--mantine-color-${c}-text)`, vars), body),
      textOnCard: contrast(parse(`var(--mantine-color-${c}-text)`, vars), card),
    };
    for (const [pair, ratio] of Object.entries(pairs)) expect({ pair, ratio: round(ratio) }).toEqual({ pair, ratio: expect.toSatisfy((r: number) => r >= 4.5) });
  });

  it.each(['light', 'dark'] as Scheme[])('%s scheme: the error and success colours (form errors, alerts) on the page', (scheme) => {
    const vars = variables(scheme);
    const body = parse('var(--mantine-color-body)', vars);
    expect(contrast(parse('var(--mantine-color-error)', vars), body)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(parse('var(--mantine-color-success)', vars), body)).toBeGreaterThanOrEqual(4.5);
  });

  it('every status has a colour from the one map', () => {
    for (const s of Object.keys(STATUS_TONE)) expect(colours).toContain(statusColor(s));
    expect(statusColor('something-new')).toBe(TONE_COLOR.neutral);
  });
});
