import fs from 'node:fs';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { describe, it } from 'vitest';

/**
 * What every real-browser test (test/e2e) shares: Debian's Chromium, never a downloaded browser,
 * launched headless with the flags this machine needs; skipped loudly on a laptop without it, a
 * failing test under CI=true.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = fs.existsSync(CHROMIUM);
/** Screenshots go here (git-ignored). */
export const ARTIFACTS = path.resolve('test-artifacts');

/**
 * Call once at the top of a browser test file, with the name of what it tests. Without Chromium:
 * under CI=true registers a test that fails; elsewhere prints a loud SKIPPED banner. Wrap the
 * file's suite in `describe.skipIf(!hasChromium)`.
 */
export function requireChromium(what: string): void {
  if (hasChromium) return;
  if (process.env.CI === 'true') {
    describe(what, () => {
      it('needs Chromium under CI=true', () => {
        throw new Error(`Chromium is required under CI=true but ${CHROMIUM} does not exist.`);
      });
    });
    return;
  }
  const line = '!'.repeat(78);
  process.stderr.write(
    `\n${line}\n!! ${CHROMIUM} not found: ${what} (test/e2e) is SKIPPED.\n!! Install chromium to run it.\n${line}\n\n`,
  );
}

/** A headless Chromium; the artifacts directory exists once it resolves. */
export function launchChromium(): Promise<Browser> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
