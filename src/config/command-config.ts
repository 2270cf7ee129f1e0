import type { Config } from './config.js';

/**
 * The write connection's page cache of the CLI's commands, MiB (ADR 0012): an import or a seed of
 * 10 000 offers a transaction touches pages of every index at random keys; with a small cache
 * they are evicted and read back many times within one transaction. A command's process is short
 * lived; `serve` keeps its cache for its whole life, so it writes with SQLITE_WRITE_CACHE_MB.
 */
export const BULK_WRITE_CACHE_MB = 64;

/**
 * The configuration of a CLI command, from `serve`'s:
 * - the writer's page cache at least the bulk size (above);
 * - no SQLite read workers (issue 26): they keep `serve`'s event loop free for other requests
 *   while a read scans (ADR 0026), and a command has no other request; each would cost a thread
 *   and its start (about 0.3 s of a command's time, more on a loaded machine) for nothing.
 */
export function forCommands(config: Readonly<Config>): Readonly<Config> {
  return {
    ...config,
    sqliteWriteCacheMb: Math.max(config.sqliteWriteCacheMb, BULK_WRITE_CACHE_MB),
    sqliteReadWorkers: 0,
  };
}
