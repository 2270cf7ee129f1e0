// The projects capability's domain types (issue 14): other capabilities and pages import
// these, never the store.

export interface Project {
  id: string;
  developerId: string;
  name: string;
  description: string;
  website: string | null;
  redirectUris: string[];
  createdAt: number;
}
