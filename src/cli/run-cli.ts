/**
 * What every command of src/cli/ does when it is the process's entry point (`node dist/src/cli/x.js`
 * or `tsx src/cli/x.ts`): run with the process's arguments, environment and standard streams, and
 * exit with the command's code (1 if it throws). Imported as a module (the tests), it does nothing.
 */
import { pathToFileURL } from 'node:url';
import { errorMessage } from '../core/errors.js';

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

export type CliCommand = (args: string[], env: NodeJS.ProcessEnv, io: CliIo) => Promise<number>;

export function runIfMain(moduleUrl: string, name: string, command: CliCommand): void {
  if (moduleUrl !== pathToFileURL(process.argv[1] ?? '').href) return;
  command(process.argv.slice(2), process.env, { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) })
    .then((code) => {
      process.exitCode = code;
    })
    .catch((err: unknown) => {
      process.stderr.write(`${name}: ${errorMessage(err)}\n`);
      process.exitCode = 1;
    });
}
