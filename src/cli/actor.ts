import os from 'node:os';
import type { Actor } from '../audit/service.js';

/** Who the audit log names for a CLI command: the operating-system account that ran it. */
export function cliActor(): Actor {
  let user: string | null = null;
  try {
    user = os.userInfo().username;
  } catch {
    // No passwd entry (some containers): the entry still says it came from the CLI.
  }
  return { kind: 'cli', id: user, email: null, ip: null };
}
