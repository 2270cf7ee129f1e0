import fs from 'node:fs';
import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { formatOf, ImportFileError, type ImportFormat, openImportSource } from '../offers/import-source.js';
import { type InvalidRow, importOffers } from '../offers/importer.js';
import type { Environment } from '../platform/environment.js';
import { UsageError } from '../platform/usage-error.js';
import { print } from './io.js';
import { createProgress } from './progress.js';
import { cliStreams, setExitCode } from './streams.js';

type WithDeps = <T>(work: (deps: Deps) => Promise<T>) => Promise<T>;

/** Invalid rows printed one by one; the rest are counted (and listed in `--json`, up to its own cap). */
const PRINTED_INVALID = 100;
const JSON_INVALID = 1_000;

/** `vitrine import --env ENV FILE` (docs/import.md). Exit 1 when some rows were skipped. */
export function registerImportCommand(
  program: Command,
  withDeps: WithDeps,
  parseEnv: (v: string) => Environment,
): void {
  program
    .command('import')
    .description(
      'upsert offers by externalId from an NDJSON or CSV file; invalid rows are reported and skipped',
    )
    .requiredOption('--env <environment>', 'production or testing', parseEnv)
    .argument('<file>', 'a .ndjson/.jsonl or .csv file')
    .option('--format <format>', 'ndjson or csv (default: from the file extension)')
    .option('--dry-run', 'validate every row, write nothing')
    .option('--json', 'print one JSON object')
    .action(
      async (
        file: string,
        o: { env: Environment; format?: string; dryRun?: boolean; json?: boolean },
      ): Promise<void> => {
        const format = chooseFormat(file, o.format);
        if (!fs.existsSync(file) || !fs.statSync(file).isFile())
          throw new UsageError(`no such file: ${file}`);
        const source = openImportSource(file, format);
        const progress = createProgress(cliStreams().stderr, Boolean(cliStreams().stderr.isTTY), () =>
          performance.now(),
        );
        const invalid: InvalidRow[] = [];
        const started = performance.now();
        const stats = await withDeps((d) =>
          importOffers({
            offers: d.offers,
            environment: o.env,
            rows: source.rows,
            dryRun: Boolean(o.dryRun),
            onInvalid(row) {
              if (invalid.length < JSON_INVALID) invalid.push(row);
              if (invalid.length <= PRINTED_INVALID) progress.note(`line ${row.line}: ${row.reason}`);
            },
            onProgress(s) {
              const { bytes, totalBytes } = source.progress();
              progress.update(s.rows, bytes, totalBytes);
            },
          }),
        ).catch((error: unknown) => {
          if (error instanceof ImportFileError) throw new UsageError(`${file}: ${error.message}`);
          throw error;
        });
        progress.done();
        if (stats.skipped > PRINTED_INVALID) {
          progress.note(`… and ${stats.skipped - PRINTED_INVALID} more invalid rows`);
        }
        const seconds = (performance.now() - started) / 1000;
        const verb = o.dryRun ? 'Checked' : 'Imported';
        print(
          {
            json: {
              environment: o.env,
              file,
              format,
              dryRun: Boolean(o.dryRun),
              rows: stats.rows,
              valid: stats.valid,
              inserted: stats.inserted,
              updated: stats.updated,
              skipped: stats.skipped,
              invalid,
              seconds: Number(seconds.toFixed(2)),
              rowsPerSecond: Math.round(stats.rows / Math.max(seconds, 0.001)),
            },
            text: o.dryRun
              ? `${verb} ${file} for ${o.env}: ${stats.valid} valid, ${stats.skipped} invalid (nothing written).`
              : `${verb} ${file} into ${o.env}: ${stats.inserted} inserted, ${stats.updated} updated, ${stats.skipped} skipped in ${seconds.toFixed(1)} s.`,
          },
          Boolean(o.json),
        );
        if (stats.skipped > 0) setExitCode(1);
      },
    );
}

function chooseFormat(file: string, option: string | undefined): ImportFormat {
  if (option !== undefined) {
    if (option !== 'ndjson' && option !== 'csv') throw new UsageError('--format must be ndjson or csv');
    return option;
  }
  const format = formatOf(file);
  if (!format)
    throw new UsageError(`cannot tell the format of ${file}: name it .ndjson or .csv, or pass --format`);
  return format;
}
