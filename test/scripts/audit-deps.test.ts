import { describe, expect, it } from 'vitest';
import { auditVerdict } from '../../scripts/audit-deps.js';

describe('npm audit step', () => {
  it('fails on a moderate or worse vulnerability, naming it', () => {
    const v = auditVerdict({
      metadata: { vulnerabilities: { info: 0, low: 1, moderate: 0, high: 1, critical: 0, total: 2 } },
      vulnerabilities: { undici: { severity: 'high' }, debug: { severity: 'low' } },
    });
    expect(v.code).toBe(1);
    expect(v.lines).toContain('  undici: high');
    expect(v.lines.join('\n')).not.toContain('debug');
  });

  it('passes with only low findings or none', () => {
    expect(auditVerdict({ metadata: { vulnerabilities: { low: 2, total: 2 } }, vulnerabilities: { a: { severity: 'low' } } }).code).toBe(0);
    expect(auditVerdict({ metadata: { vulnerabilities: { total: 0 } }, vulnerabilities: {} }).lines[0]).toMatch(/no moderate or worse/);
  });

  it('skips with a message when the registry cannot answer', () => {
    const v = auditVerdict({ message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk' });
    expect(v).toEqual({ code: 0, lines: [expect.stringMatching(/^npm audit skipped: .*405 Method Not Allowed/)] });
  });
});
