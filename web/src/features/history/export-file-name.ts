// One naming rule for every export, so a driver's downloads sort by date in a folder.

/** delivery-tracker-2025-01-01-to-2025-03-31.csv, for YYYY-MM-DD days. */
export function exportFileName(from: string, to: string, extension: 'csv' | 'json'): string {
  return `delivery-tracker-${from}-to-${to}.${extension}`;
}
