import { Download } from 'lucide-react';
import { Button } from '@/components/button';
import { EvidenceBundleButton } from '@/features/evidence/evidence-bundle-button';
import { downloadText } from '@/lib/download';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { PaySetup } from '@/lib/sync-react/use-pay-setup';
import type { ProfileView } from '@/lib/sync-react/use-profile';
import type { LocalEntry, LocalStatementCheck } from '@/sync/types';
import { csvFileName, entriesToCsv } from './csv-export';
import { closedRange, inRange, type DayRange } from './history-range';
import { readExportRecords } from './export-commands';
import { buildJsonExport, jsonFileName, type ExportableSettings } from './json-export';
import styles from './history-page.module.css';

interface ExportButtonsProps {
  range: DayRange;
  today: string;
  /** Live entries in the range. */
  entries: readonly LocalEntry[];
  /** every live statement check; the export keeps those overlapping the range. */
  statementChecks: readonly LocalStatementCheck[];
  profile: ProfileView | undefined;
  /** Couriers name the CSV's rows. */
  pay: PaySetup | undefined;
  /** The synced settings the JSON carries. */
  settings: ExportableSettings;
}

/**
 * CSV of the days in the range, JSON of everything the user owns in it (every kind's records read
 * from the device when asked), both made on the device; and the range's evidence bundle.
 */
export function ExportButtons({ range, today, entries, statementChecks, profile, pay, settings }: ExportButtonsProps) {
  const { db } = useSyncHandle();
  const closed = closedRange(range, entries.map((entry) => entry.date), today);
  const overlapping = statementChecks.filter((check) => check.periodEnd >= closed.from && check.periodStart <= closed.to);
  const disabled = entries.length === 0 && overlapping.length === 0;
  const exportJson = async () => {
    if (!profile) return;
    const records = await readExportRecords(db);
    const data = buildJsonExport({ accountId: db.userId, profile, settings, records, from: closed.from, to: closed.to, exportedAt: new Date().toISOString() });
    downloadText(jsonFileName(closed.from, closed.to), `${JSON.stringify(data, null, 2)}\n`, 'application/json');
  };
  return (
    <div className={styles.exports} role="group" aria-label="Export">
      <Button
        variant="secondary"
        disabled={entries.length === 0}
        onClick={() => downloadText(csvFileName(closed.from, closed.to), entriesToCsv(
              entries.filter((e) => inRange(e.date, closed)),
              pay?.couriers,
            ), 'text/csv;charset=utf-8')}
      >
        <Download aria-hidden="true" />
        Export CSV
      </Button>
      <Button
        variant="secondary"
        disabled={disabled || !profile}
        onClick={() => void exportJson()}
      >
        <Download aria-hidden="true" />
        Export JSON
      </Button>
      <EvidenceBundleButton request={() => ({ from: closed.from, to: closed.to })} driver={profile?.displayName ?? ''} />
    </div>
  );
}
