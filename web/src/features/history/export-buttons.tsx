import { Download } from 'lucide-react';
import { useMemo } from 'react';
import { Button } from '@/components/button';
import { useExpenses } from '@/features/expenses/use-expenses';
import { useFuelLog } from '@/features/fuel-fills/use-fuel-fills';
import { useMileageLog } from '@/features/mileage/use-mileage';
import { useSentUpdates } from '@/features/sent-updates/use-sent-updates';
import { useStatementFormats, useStatementLines } from '@/features/statement-lines/use-statement-lines';
import { useStatementQueries } from '@/features/statement-queries/use-statement-queries';
import { useVehicles } from '@/lib/sync-react/use-vehicles';
import { downloadText } from '@/lib/download';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { PaySetup } from '@/lib/sync-react/use-pay-setup';
import type { ProfileView } from '@/lib/sync-react/use-profile';
import type { LocalEntry, LocalStatementCheck } from '@/sync/types';
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
}

/**
 * CSV of the days in the range, or JSON of everything the user owns in it; made on the device.
 * The JSON's other records (every expense, vehicle, mileage day, fuel fill, statement line and
 * format, sent update and query) are read here, once the list is on the screen, rather than by
 * the page as it opens: on a ten-year device those reads held back its first card (issue 30).
 */
export function ExportButtons({ range, today, entries, statementChecks, profile, pay, settings }: ExportButtonsProps) {
  const { db } = useSyncHandle();
  const { spending, statements } = useExportedRecords();
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

/** Every live record the JSON carries besides the days, checks, profile and pay; undefined parts until read. */
function useExportedRecords() {
  const expenses = useExpenses();
  const vehicles = useVehicles();
  const mileageLog = useMileageLog();
  const fuelLog = useFuelLog();
  const spending = useMemo(
    () => (expenses && vehicles && mileageLog && fuelLog ? { expenses, vehicles, mileage: mileageLog.records, fuelFills: fuelLog.fills } : undefined),
    [expenses, vehicles, mileageLog, fuelLog],
  );
  const statementLines = useStatementLines();
  const statementFormats = useStatementFormats();
  const sentUpdates = useSentUpdates();
  const statementQueries = useStatementQueries();
  const statements = useMemo(
    () => (statementLines && statementFormats && sentUpdates && statementQueries ? { statementLines, statementFormats, sentUpdates, statementQueries } : undefined),
    [statementLines, statementFormats, sentUpdates, statementQueries],
  );
  return { spending, statements };
}
