import { useState } from 'react';
import { INVOICE_MASTER_CHECKS } from '@/lib/achievements';
import type { LocalEntry, LocalInvoice } from '@/sync/types';
import { InvoiceCard } from './invoice-card';
import { InvoiceForm } from './invoice-form';
import panel from '@/components/panel.module.css';
import styles from './invoices.module.css';

interface InvoicesViewProps {
  invoices: LocalInvoice[];
  /** Every live entry: a statement's period need not be inside the list's date range. */
  entries: readonly LocalEntry[];
  parkedReasons: ReadonlyMap<string, string>;
  lastWeekStart: string;
  onDelete: (check: LocalInvoice) => void;
}

/** Invoice checks: a form for a new one, then every saved check, latest period first. */
export function InvoicesView({ invoices, entries, parkedReasons, lastWeekStart, onDelete }: InvoicesViewProps) {
  const [editing, setEditing] = useState<string | null>(null);
  const checked = Math.min(invoices.length, INVOICE_MASTER_CHECKS);
  return (
    <>
      <InvoiceForm lastWeekStart={lastWeekStart} onSaved={() => undefined} />
      <section className={panel.panel} aria-labelledby="checks-title">
        <div className={panel.panelHead}>
          <h2 id="checks-title" className={panel.panelTitle}>
            Your checks
          </h2>
          <span className={styles.hint}>
            {checked} of {INVOICE_MASTER_CHECKS} towards Invoice Master
          </span>
        </div>
        {invoices.length === 0 ? (
          <p className={styles.empty}>No invoice checks yet.</p>
        ) : (
          <ul className={styles.invoiceList}>
            {invoices.map((check) => (
              <li key={check.id}>
                {editing === check.id ? (
                  <InvoiceForm editing={check} lastWeekStart={lastWeekStart} onSaved={() => setEditing(null)} onCancel={() => setEditing(null)} />
                ) : (
                  <InvoiceCard
                    check={check}
                    entries={entries}
                    parkedReason={parkedReasons.get(check.id)}
                    onEdit={() => setEditing(check.id)}
                    onDelete={() => onDelete(check)}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
