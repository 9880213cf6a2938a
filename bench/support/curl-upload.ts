/**
 * A multipart upload by curl in its own process. The service's benchmarks measure the service, so
 * the client must not share its process: an in-process client took about half the service's CPU.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFile$ = promisify(execFile);

export interface CurlUpload {
  url: string;
  token: string;
  fields: Record<string, string>;
  file: string;
  filename: string;
  type: string;
}

/** POSTs the fields and the file (streamed from disk by curl); throws unless the answer is 200. */
export async function curlUpload<T>(u: CurlUpload): Promise<T> {
  const args = ['-sS', '-H', `authorization: Bearer ${u.token}`];
  for (const [k, v] of Object.entries(u.fields)) args.push('-F', `${k}=${v}`);
  args.push('-F', `file=@${u.file};filename=${u.filename};type=${u.type}`, '-w', '\n%{http_code}', u.url);
  const { stdout } = await execFile$('curl', args, { timeout: 600_000, maxBuffer: 16 * 1024 * 1024 });
  const lines = stdout.trimEnd().split('\n');
  const status = Number(lines.pop());
  const text = lines.join('\n');
  if (status !== 200) throw new Error(`${u.url} answered ${status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}
