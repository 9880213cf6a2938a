/** Every status is shown as a word (and an icon), never by colour alone, in the console's language. */
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { type Status, StatusBadge } from '../../src/components/StatusBadge';
import i18n from '../../src/i18n';
import { en } from '../../src/i18n/en';
import { renderWithProviders } from '../render';

const ALL = Object.keys(en.status) as Status[];

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('StatusBadge', () => {
  it.each(ALL)('shows %s as its word with an icon', (status) => {
    renderWithProviders(<StatusBadge status={status} />);
    const word = screen.getByText(en.status[status]);
    // The icon is decoration beside the word: hidden from assistive technology.
    const badge = word.parentElement as HTMLElement;
    expect(badge.textContent).toBe(en.status[status]);
    expect(badge.querySelector('[aria-hidden="true"]')).not.toBeNull();
  });

  it('distinguishes statuses that share a colour by their words', () => {
    renderWithProviders(
      <>
        <StatusBadge status="failed" />
        <StatusBadge status="offline" />
        <StatusBadge status="cancelled" />
        <StatusBadge status="skipped" />
      </>,
    );
    for (const word of ['Failed', 'Offline', 'Cancelled', 'Skipped']) expect(screen.getByText(word)).toBeTruthy();
  });

  it('shows a status it does not know as the raw word', () => {
    renderWithProviders(<StatusBadge status="exploded" />);
    expect(screen.getByText('exploded')).toBeTruthy();
  });

  it('speaks the chosen language', async () => {
    await i18n.changeLanguage('zh-CN');
    renderWithProviders(<StatusBadge status="running" />);
    expect(screen.getByText('进行中')).toBeTruthy();
  });
});
