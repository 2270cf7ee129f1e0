// The me capability's domain types (issue 14): other capabilities and pages import
// these, never the store.

/** What end users keep: favorites, saved searches, and which offers they published. */
export interface SavedSearch {
  id: string;
  name: string;
  query: Record<string, unknown>;
  /** Issue 24: a webhook `saved_search.matched` for each new offer it finds (default false). */
  alerts: boolean;
  createdAt: number;
}
