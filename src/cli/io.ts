import { UsageError } from '../platform/usage-error.js';
import { cliStreams } from './streams.js';

/** Output of a command: a text rendering for people and one JSON object for `--json`. */
export interface CommandResult {
  json: Record<string, unknown>;
  text: string;
}

export function print(result: CommandResult, asJson: boolean): void {
  cliStreams().stdout.write(asJson ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
}

/**
 * Reads a secret from standard input (never from argv, where `ps` and shell history
 * would show it). Piped (scripts, `echo … |`): all of it, one trailing newline dropped, as `echo`
 * and here-strings add one. At a terminal: a prompt that shows nothing of what is typed and ends
 * at Enter, as `sudo` and `ssh` do (issue 15: it used to echo and wait for Ctrl-D).
 */
export async function readSecretFromStdin(what: string): Promise<string> {
  const { stdin } = cliStreams();
  const value = stdin.isTTY ? await promptHidden(what) : await readPiped();
  if (value === '') throw new UsageError(`no ${what} on standard input`);
  return value;
}

async function readPiped(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of cliStreams().stdin) chunks.push(Buffer.from(chunk as Buffer | string));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

const ENTER = new Set(['\r', '\n', '\u0004']);
const INTERRUPT = '\u0003';
const ERASE = new Set(['\u007f', '\b']);

/** A line read from the terminal in raw mode: nothing echoed, Backspace works, Ctrl-C cancels. */
function promptHidden(what: string): Promise<string> {
  const { stdin, stderr } = cliStreams();
  // Raw mode before the prompt: keys typed as soon as it shows must not be echoed.
  stdin.setRawMode?.(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  stderr.write(`${what} (typing is not shown; Enter to finish): `);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (settle: () => void) => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      stderr.write('\n');
      settle();
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (ENTER.has(char)) return finish(() => resolve(value));
        if (char === INTERRUPT) return finish(() => reject(new UsageError(`no ${what}: cancelled`)));
        if (ERASE.has(char)) value = [...value].slice(0, -1).join('');
        else if (char >= ' ') value += char;
      }
    };
    stdin.on('data', onData);
  });
}

export function parseTimestamp(value: string, option: string): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new UsageError(`${option} must be an ISO 8601 date or date-time: ${value}`);
  return ms;
}

export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A fixed-width text table for list commands. */
export function table(headers: string[], rows: (string | null)[][]): string {
  if (rows.length === 0) return '(none)';
  const cells = [headers, ...rows.map((r) => r.map((c) => c ?? '-'))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells
    .map((r) =>
      r
        .map((c, i) => (c ?? '').padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
