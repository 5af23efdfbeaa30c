import { Download } from 'lucide-react';
import { Button } from '@/components/button';
import { downloadText } from '@/lib/download';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { PaySetup } from '@/lib/sync-react/use-pay-setup';
import type { ProfileView } from '@/lib/sync-react/use-profile';
import type { LocalEntry, LocalExpense, LocalFuelFill, LocalStatementCheck, LocalMileage, LocalSentUpdate, LocalStatementFormat, LocalStatementQuery, LocalStatementLine, LocalEvidence, LocalVehicle } from '@/sync/types';
import { csvFileName, entriesToCsv } from './csv-export';
import { closedRange, inRange, type DayRange } from './history-range';
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
  /** Couriers name the CSV's rows; the JSON carries couriers, cards and deductions whole. */
  pay: PaySetup | undefined;
  /** The synced settings the JSON carries. */
  settings: ExportableSettings;
  /** Every live expense, vehicle, mileage day and fuel fill: the JSON keeps those in the range (vehicles whole). */
  spending: { expenses: readonly LocalExpense[]; vehicles: readonly LocalVehicle[]; mileage: readonly LocalMileage[]; fuelFills: readonly LocalFuelFill[] } | undefined;
  /** Every live statement line (the JSON keeps those of its checks) and every saved statement format. */
  statements: { statementLines: readonly LocalStatementLine[]; statementFormats: readonly LocalStatementFormat[]; sentUpdates: readonly LocalSentUpdate[]; statementQueries: readonly LocalStatementQuery[]; evidence: readonly LocalEvidence[] } | undefined;
}

/** CSV of the days in the range, or JSON of everything the user owns in it; made on the device. */
export function ExportButtons({ range, today, entries, statementChecks, profile, pay, settings, spending, statements }: ExportButtonsProps) {
  const { db } = useSyncHandle();
  const closed = closedRange(range, entries.map((entry) => entry.date), today);
  const overlapping = statementChecks.filter((check) => check.periodEnd >= closed.from && check.periodStart <= closed.to);
  const disabled = entries.length === 0 && overlapping.length === 0;
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
        disabled={disabled || !profile || !pay || !spending || !statements}
        onClick={() => {
          if (!profile || !pay || !spending || !statements) return;
          const data = buildJsonExport({ accountId: db.userId, profile, settings, entries, statementChecks, pay, ...spending, ...statements, from: closed.from, to: closed.to, exportedAt: new Date().toISOString() });
          downloadText(jsonFileName(closed.from, closed.to), `${JSON.stringify(data, null, 2)}\n`, 'application/json');
        }}
      >
        <Download aria-hidden="true" />
        Export JSON
      </Button>
    </div>
  );
}
