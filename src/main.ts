#!/usr/bin/env node
import { runVitrine } from './cli/program.js';

/**
 * The `vitrine` command: runs it on this process's streams and environment (src/cli/program.ts).
 * A command that succeeds lets the process end by itself once its work is closed (`serve` keeps
 * it running); one that fails ends it at once with its exit code, whatever it left open.
 */
runVitrine(process.argv).then(
  (code) => {
    if (code !== 0) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`vitrine: ${(error as Error).message ?? String(error)}\n`);
    process.exit(1);
  },
);
