import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

/**
 * Issue 25: the README, the docs, the examples and the code cite no document outside the
 * repository (the product's specification lives elsewhere; what it decides is written here).
 */
it('cites no document outside the repository', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  let hits = '';
  try {
    hits = execFileSync(
      'grep',
      [
        '-rnE',
        String.raw`\bSPEC\b($|[^_])|\(STYLE\)`,
        'README.md',
        'docs',
        'examples',
        'src',
        'packages',
        '--exclude-dir=node_modules',
        '--exclude-dir=dist',
      ],
      { cwd: root, encoding: 'utf8' },
    );
  } catch (error) {
    // grep exits 1 when nothing matches.
    if ((error as { status?: number }).status !== 1) throw error;
  }
  expect(hits).toBe('');
});
