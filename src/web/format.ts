/** Dates on the portal and console pages: UTC, to the minute, the same for every reader. */
export function formatTime(ms: number | null): string {
  if (ms === null) return 'never';
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
