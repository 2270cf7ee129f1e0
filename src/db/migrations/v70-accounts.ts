import type { Dialect } from '../database.js';

/**
 * Version 70 (issue 15): operator and developer accounts can be disabled (`vitrine operators
 * disable`, `vitrine developers disable`). A disabled account cannot sign in; its sessions end.
 */
export function accountStateSchema(dialect: Dialect): string {
  const time = dialect === 'postgres' ? 'BIGINT' : 'INTEGER';
  return `
ALTER TABLE operators ADD COLUMN disabled_at ${time};
ALTER TABLE developers ADD COLUMN disabled_at ${time};
`;
}
