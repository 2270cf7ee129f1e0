import { stdin } from 'node:process';
import { UsageError } from '../platform/usage-error.js';

/** Output of a command: a text rendering for people and one JSON object for `--json` (SPEC §10). */
export interface CommandResult {
  json: Record<string, unknown>;
  text: string;
}

export function print(result: CommandResult, asJson: boolean): void {
  process.stdout.write(asJson ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
}

/**
 * Reads a secret from standard input (SPEC §10: never from argv, where `ps` and shell history
 * would show it). One trailing newline is dropped, as `echo` and here-strings add one.
 */
export async function readSecretFromStdin(what: string): Promise<string> {
  if (stdin.isTTY) process.stderr.write(`${what}: `);
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(chunk as Buffer);
  const value = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (value === '') throw new UsageError(`no ${what} on standard input`);
  return value;
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
