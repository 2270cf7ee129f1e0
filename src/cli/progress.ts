/**
 * Import progress on stderr (stdout stays for the result): a bar redrawn in place on a
 * terminal, plain lines every few seconds otherwise (logs, CI), both with rows/s and an ETA
 * estimated from the share of the file read so far.
 */
export interface ProgressReporter {
  update(rows: number, bytes: number, totalBytes: number): void;
  /** Writes a message on its own line without garbling the bar. */
  note(message: string): void;
  done(): void;
}

const BAR_WIDTH = 24;
const TTY_INTERVAL_MS = 100;
const LINE_INTERVAL_MS = 2_000;

const grouped = (n: number) => Math.round(n).toLocaleString('en-US');

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

export function createProgress(
  out: { write(text: string): unknown },
  isTTY: boolean,
  now: () => number,
): ProgressReporter {
  const started = now();
  let last = 0;
  let drawn = false;
  let latest: [number, number, number] = [0, 0, 0];
  const render = (final: boolean) => {
    const [rows, bytes, totalBytes] = latest;
    const elapsed = Math.max((now() - started) / 1000, 0.001);
    const share = totalBytes > 0 ? Math.min(bytes / totalBytes, 1) : 1;
    const rate = rows / elapsed;
    const eta = share > 0 ? (elapsed / share) * (1 - share) : Number.POSITIVE_INFINITY;
    const percent = `${Math.floor(share * 100)}%`;
    if (isTTY) {
      const filled = Math.round(share * BAR_WIDTH);
      const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
      out.write(
        `\r${bar} ${percent.padStart(4)}  ${grouped(rows)} rows  ${grouped(rate)} rows/s  ${final ? `${duration(elapsed)} total` : `ETA ${duration(eta)}`}\x1b[K`,
      );
      drawn = true;
    } else {
      out.write(
        `import: ${grouped(rows)} rows (${percent}), ${grouped(rate)} rows/s, ${final ? `done in ${duration(elapsed)}` : `ETA ${duration(eta)}`}\n`,
      );
    }
  };
  return {
    update(rows, bytes, totalBytes) {
      latest = [rows, bytes, totalBytes];
      const t = now();
      if (t - last < (isTTY ? TTY_INTERVAL_MS : LINE_INTERVAL_MS)) return;
      last = t;
      render(false);
    },
    note(message) {
      out.write(`${drawn ? '\r\x1b[K' : ''}${message}\n`);
      drawn = false;
    },
    done() {
      render(true);
      if (isTTY) out.write('\n');
    },
  };
}
