// Runs the CLI in the test's process with captured output: what a user would see on stdout and
// stderr, and the exit status.
import { PassThrough } from 'node:stream';
import type { CliEnv, CliIO } from './command.ts';
import { main } from './main.ts';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export async function runCli(argv: string[], env: CliEnv = {}, input = ''): Promise<CliRun> {
  let out = '';
  let err = '';
  const stdin = new PassThrough();
  stdin.end(input);
  const io: CliIO = {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
    input: stdin,
    output: new PassThrough(),
  };
  const code = await main(argv, io, env);
  return { code, out, err };
}
