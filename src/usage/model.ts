// The usage capability's domain types (issue 14): other capabilities and pages import
// these, never the store.

/** `2xx`, `4xx`, … of a response status. */
export type StatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx';

export interface UsageRow {
  keyId: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  statusClass: StatusClass;
  requests: number;
}
