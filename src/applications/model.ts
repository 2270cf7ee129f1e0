import type { Environment } from '../platform/environment.js';

// The applications capability's domain types (issue 14): other capabilities and pages import
// these, never the store.

export type ApplicationState = 'pending' | 'approved' | 'rejected';

/** An application for a key: a project asks for a key of one environment. */
export interface KeyApplication {
  id: string;
  projectId: string;
  environment: Environment;
  wantsRefresh: boolean;
  refreshReason: string;
  state: ApplicationState;
  decisionReason: string | null;
  decidedBy: string | null;
  decidedAt: number | null;
  keyId: string | null;
  /** True while the issued key waits, sealed, for its one reveal. */
  keyWaiting: boolean;
  revealedAt: number | null;
  createdAt: number;
}
