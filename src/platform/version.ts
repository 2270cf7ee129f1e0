import { readFileSync } from 'node:fs';

/**
 * Vitrine's one version (issue 15): package.json's, read once at start. The same file sits two
 * levels above this module whether it runs from src/ (tsx) or dist/ (the built CLI, the image).
 * `/openapi.json`, `/healthz`, `vitrine --version` and `vitrine_build_info` all show it.
 */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
