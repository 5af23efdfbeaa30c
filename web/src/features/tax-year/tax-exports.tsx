import { Download, Printer } from 'lucide-react';
import { Button } from '@/components/button';
import panel from '@/components/panel.module.css';
import { downloadText } from '@/lib/download';
import type { TaxRecords, TaxSummary } from '@/core/tax/tax-summary';
import { quartersCsv, recordsCsv, taxCsvFileName } from './tax-csv';
import styles from './tax-year-page.module.css';

const CSV_TYPE = 'text/csv;charset=utf-8';

/** The year's files, made on the device: they work with no signal. */
export function TaxExports({ summary, records }: { summary: TaxSummary; records: TaxRecords }) {
  return (
    <section className={`${panel.panel} ${styles.noPrint}`} aria-labelledby="tax-exports">
      <h2 id="tax-exports" className={panel.panelTitle}>
        Export
      </h2>
      <p className={styles.muted}>
        The records file has one row per day, cost and mileage claim (money in positive, money out negative) for bridging software or your
        accountant; the quarterly file has the cumulative totals of each Making Tax Digital quarter.
      </p>
      <div className={styles.exports}>
        <Button variant="secondary" onClick={() => downloadText(taxCsvFileName(summary.year, 'records'), recordsCsv(summary, records), CSV_TYPE)}>
          <Download aria-hidden="true" />
          Records CSV
        </Button>
        <Button variant="secondary" onClick={() => downloadText(taxCsvFileName(summary.year, 'quarters'), quartersCsv(summary), CSV_TYPE)}>
          <Download aria-hidden="true" />
          Quarterly CSV
        </Button>
        <Button variant="secondary" onClick={() => window.print()}>
          <Printer aria-hidden="true" />
          Print or save as PDF
        </Button>
      </div>
    </section>
  );
}
