import type { Config } from '../config/config.js';
import type { Environment } from '../platform/environment.js';

/** Public addresses of each environment: `{base_url}` = `<origin>/v1`, `{auth_url}` = `<origin>/auth`. */
export function origins(config: Config): Record<Environment, string> {
  return { production: config.publicOrigin, testing: config.testingPublicOrigin };
}

export function baseUrls(config: Config): Record<Environment, string> {
  const o = origins(config);
  return { production: `${o.production}/v1`, testing: `${o.testing}/v1` };
}

export function authUrls(config: Config): Record<Environment, string> {
  const o = origins(config);
  return { production: `${o.production}/auth`, testing: `${o.testing}/auth` };
}
