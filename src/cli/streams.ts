import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Where a `vitrine` command reads and writes: the process's own streams and environment when run
 * as a command (`src/main.ts`), or those a caller hands to `runVitrine` (the CLI tests run
 * commands in the test process this way, issue 26: no process to start per command). A command
 * never reaches for `process.stdout`, `process.stderr`, `process.stdin` or `process.env` itself:
 * it asks `cliStreams()`, which answers the streams of the command it runs in (an async context,
 * so commands run side by side never mix their output).
 */
export interface CliStreams {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };
  env: NodeJS.ProcessEnv;
}

export const processStreams: CliStreams = {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
};

interface Run {
  streams: CliStreams;
  /** The exit code a command asks for without failing (an import that skipped rows: 1). */
  exitCode: number;
}

const current = new AsyncLocalStorage<Run>();

/** Runs `work` with `streams` as the command's streams; resolves to its result and exit code. */
export async function withCliStreams<T>(
  streams: CliStreams,
  work: () => Promise<T>,
): Promise<{ result: T; exitCode: number }> {
  const run: Run = { streams, exitCode: 0 };
  const result = await current.run(run, work);
  return { result, exitCode: run.exitCode };
}

export function cliStreams(): CliStreams {
  return current.getStore()?.streams ?? processStreams;
}

/** The command ends with this exit code once it has printed its result (it does not fail). */
export function setExitCode(code: number): void {
  const run = current.getStore();
  if (run) run.exitCode = code;
  else process.exitCode = code;
}
