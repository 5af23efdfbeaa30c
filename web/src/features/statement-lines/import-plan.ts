// Which read rows become new statement lines of a check: each row's record id comes from the
// check and the row's key (line-identity.ts), and a row whose id the device already has (live,
// or deleted by the driver) is skipped. Importing the same file again therefore adds nothing,
// and a line the driver deleted is not brought back by it.
import type { StatementLineContent } from '@/sync/types';
import { lineId, rowKeys } from './line-identity';
import type { ReadRow } from '@/core/statement-lines/read-lines';

export interface LineImport {
  /** New lines, each with its id, in the file's order. */
  lines: { id: string; content: StatementLineContent }[];
  /** Rows already on the device. */
  already: number;
}

export async function planLineImport(
  check: { id: string; courierId: string },
  rows: readonly ReadRow[],
  existingIds: ReadonlySet<string>,
  source: 'csv' | 'pdf' = 'csv',
): Promise<LineImport> {
  const keys = await rowKeys(
    rows.map((r) => r.cells),
    source,
  );
  const plan: LineImport = { lines: [], already: 0 };
  for (const [index, { line }] of rows.entries()) {
    const lineKey = keys[index] as string;
    const id = await lineId(check.id, lineKey);
    if (existingIds.has(id)) {
      plan.already += 1;
      continue;
    }
    plan.lines.push({ id, content: { ...line, invoiceId: check.id, courierId: check.courierId, lineKey } });
  }
  return plan;
}
