/**
 * The journeys' safety net itself: a page that breaks the CSP, throws or logs an error is reported,
 * and axe's findings fail `expectAccessible`. Without this, a silent harness would pass anything.
 */
import { describe, expect, it } from 'vitest';
import { expectAccessible, openConsole } from './support/browser.js';
import { setupE2E } from './support/e2e.js';

const e2e = setupE2E();

describe('e2e harness', () => {
  it('reports CSP violations, page errors and console errors', async () => {
    // Opened directly (not through e2e.open), so these deliberate problems do not fail the suite.
    const cp = await openConsole(e2e.browser, e2e.svc.url);
    try {
      await cp.page.goto('/login');
      await cp.page.getByRole('button', { name: 'Sign in' }).waitFor();
      await cp.page.evaluate(() => {
        const s = document.createElement('script');
        s.textContent = 'window.inlineRan = true';
        document.body.appendChild(s);
        console.error('deliberate console error');
        setTimeout(() => {
          throw new Error('deliberate page error');
        });
      });
      await expect.poll(() => cp.problems().length).toBeGreaterThanOrEqual(3);
      const all = cp.problems().join('\n');
      expect(all).toMatch(/CSP violation: script-src/);
      expect(all).toContain('deliberate console error');
      expect(all).toContain('deliberate page error');
      expect(await cp.page.evaluate(() => 'inlineRan' in window)).toBe(false);
      expect(() => cp.expectNoProblems()).toThrow(/problem/);
      cp.allow(/deliberate|CSP violation|Content Security Policy/);
      expect(cp.problems()).toEqual([]);
    } finally {
      await cp.close();
    }
  });

  it('fails expectAccessible on a serious finding', async () => {
    const cp = await openConsole(e2e.browser, e2e.svc.url);
    try {
      await cp.page.goto('/login');
      await cp.page.getByRole('button', { name: 'Sign in' }).waitFor();
      await expectAccessible(cp.page);
      // An image without any text alternative is a critical finding.
      await cp.page.evaluate(() => {
        const img = document.createElement('img');
        img.src = '/favicon.svg';
        document.body.appendChild(img);
      });
      await expect(expectAccessible(cp.page)).rejects.toThrow(/image-alt/);
    } finally {
      await cp.close();
    }
  });
});
