import { CONFIG_SPEC } from './config.js';

/** Renders `docs/config.md` from the config table; `npm run docs:generate` writes it. */
export function renderConfigDocs(): string {
  const rows = Object.values(CONFIG_SPEC).map(
    (v) => `| \`${v.env}\` | ${v.fallback === undefined ? '—' : `\`${v.fallback}\``} | ${v.doc} |`,
  );
  return [
    '# Configuration',
    '',
    '<!-- Generated from src/config/config.ts by `npm run docs:generate`. Do not edit by hand. -->',
    '',
    'Vitrine reads its configuration from environment variables, once, at start. Every `vitrine`',
    'command reads the same variables as `vitrine serve`. An invalid value stops the process with a',
    'message naming the variable (exit code 2); nothing starts half-configured.',
    '',
    '| variable | default | meaning |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
