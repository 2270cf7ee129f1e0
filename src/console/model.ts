// The console capability's domain types (issue 14): other capabilities and pages import
// these, never the store.

/** One page of a console list and how many there are in all (issue 15: lists used to stop at 100). */
export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export interface DeveloperRow {
  id: string;
  email: string;
  name: string;
  createdAt: number;
  disabledAt: number | null;
}

/** Look-ups the console's lists and search boxes need across developers, projects and keys. */
export interface ConsoleSearch {
  /** Developers whose id, email or name contains `q` (every one when empty), newest first. */
  developers(q: string, page?: number): Promise<Paged<DeveloperRow>>;
  /** Ids of projects whose id, name, developer id or owner email contains `q`, newest first. */
  projectIds(q: string, page?: number): Promise<Paged<string>>;
  /** Ids of keys whose id, hint or project id contains `q`, newest first. */
  keyIds(q: string, page?: number): Promise<Paged<string>>;
}

export const CONSOLE_PAGE_SIZE = 50;
