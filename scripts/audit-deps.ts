/**
 * `npm audit --omit=dev` as a step of `npm test`: a known vulnerability of moderate severity or
 * above in what the service ships (runtime dependencies, including the console's bundled ones)
 * fails the run. Where the registry cannot answer audit requests (an offline mirror, a proxy that
 * refuses the bulk advisory endpoint), the step says so and is skipped rather than failed.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const FAIL_AT = ['moderate', 'high', 'critical'];

export interface AuditReport {
  metadata?: { vulnerabilities?: Record<string, number> };
  vulnerabilities?: Record<string, { severity: string }>;
  message?: string;
}

/** What a report means for the run: exit code and the lines to print. */
export function auditVerdict(report: AuditReport, fallbackReason = 'no answer'): { code: 0 | 1; lines: string[] } {
  const counts = report.metadata?.vulnerabilities;
  if (!counts) return { code: 0, lines: [`npm audit skipped: the registry did not answer the audit request (${report.message ?? fallbackReason})`] };
  const failing = Object.entries(report.vulnerabilities ?? {}).filter(([, v]) => FAIL_AT.includes(v.severity));
  const summary = Object.entries(counts)
    .filter(([k, n]) => k !== 'total' && n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  if (failing.length === 0) {
    return { code: 0, lines: [`npm audit: no moderate or worse vulnerability in runtime dependencies${summary ? ` (${summary})` : ''}`] };
  }
  return {
    code: 1,
    lines: [
      `npm audit: ${summary}`,
      ...failing.map(([name, v]) => `  ${name}: ${v.severity}`),
      'Update the packages above (npm audit fix --omit=dev) or document why they cannot be.',
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8', timeout: 120_000 });
  let report: AuditReport = {};
  try {
    report = JSON.parse(run.stdout || '{}') as AuditReport;
  } catch {
    // not JSON: the registry or npm failed before auditing
  }
  const why = run.error?.message ?? run.stderr.trim().split('\n').pop() ?? undefined;
  const { code, lines } = auditVerdict(report, why);
  for (const l of lines) (code ? console.error : console.log)(l);
  process.exit(code);
}
