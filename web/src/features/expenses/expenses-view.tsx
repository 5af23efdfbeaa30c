import { Car, Pencil, Plus, Trash2 } from 'lucide-react';
import { useCallback, useId, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { UndoToast } from '@/components/undo-toast';
import { formatMonthYear, formatPence, formatShortDate } from '@/lib/format';
import { expenseCategory } from '@/core/tax/expense-categories';
import { usePaySetup } from '@/lib/sync-react/use-pay-setup';
import { useReceiptQueue } from '@/lib/sync-react/use-receipts';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useVehicles } from '@/lib/sync-react/use-vehicles';
import { useNow } from '@/lib/use-now';
import { localDay } from '@/lib/week';
import type { LocalCourier, LocalExpense, LocalVehicle } from '@/sync/types';
import { deleteExpense, removeReceipt, restoreExpense, retryReceiptUpload } from './commands';
import { ExpenseForm } from './expense-form';
import { expenseMonths, type ExpenseDay } from './expense-months';
import { categoryLabel, repeatWords } from './expense-words';
import { StoredReceipt } from './receipt-photos';
import { useExpenses } from './use-expenses';
import panel from '@/components/panel.module.css';
import styles from './expenses.module.css';

/**
 * The driver's expenses by month, newest first, with each month's total and each expense's
 * receipt photos and their upload state; add, edit, and delete with Undo. `?add=1` opens the
 * form (the dashboard's "Add expense"). All from the device, so it works with no signal.
 */
export function ExpensesView() {
  const expenses = useExpenses();
  const pay = usePaySetup();
  const vehicles = useVehicles();
  return expenses && pay && vehicles ? <LoadedExpensesView expenses={expenses} couriers={pay.couriers} vehicles={vehicles} /> : <Spinner />;
}

interface LoadedProps {
  expenses: readonly LocalExpense[];
  couriers: readonly LocalCourier[];
  vehicles: readonly LocalVehicle[];
}

function LoadedExpensesView({ expenses, couriers, vehicles }: LoadedProps) {
  const handle = useSyncHandle();
  const headingId = useId();
  const [params, setParams] = useSearchParams();
  const today = localDay(useNow());
  const queue = useReceiptQueue();
  // 'new', or the row being edited ("id@date": a repeating expense shows on several days).
  const [editing, setEditing] = useState<string | null>(null);
  const [deleted, setDeleted] = useState<LocalExpense | null>(null);
  const dismiss = useCallback(() => setDeleted(null), []);
  const months = useMemo(() => expenseMonths(expenses, today), [expenses, today]);
  const asked = params.get('add') === '1';
  const adding = editing === 'new' || asked;

  function close() {
    setEditing(null);
    // The dashboard's "Add expense" asked once: a reload after saving must not reopen the form.
    if (asked) setParams((current) => (current.delete('add'), current), { replace: true });
  }

  async function remove(expense: LocalExpense) {
    await deleteExpense(handle, expense.id);
    setDeleted(expense);
  }

  const formProps = { couriers, vehicles, today, onSaved: close, onCancel: close };
  return (
    <section className={panel.panel} aria-labelledby={headingId}>
      <div className={styles.head}>
        <h2 id={headingId} className={panel.panelTitle}>
          Expenses
        </h2>
        {adding ? null : (
          <Button variant="secondary" onClick={() => setEditing('new')}>
            <Plus aria-hidden="true" />
            Add expense
          </Button>
        )}
      </div>
      {queue && queue.waiting + queue.failed > 0 ? <p className={styles.hint}>{queueWords(queue)}</p> : null}
      {adding ? <ExpenseForm {...formProps} /> : null}
      {months.length === 0 && !adding ? (
        <p className={styles.hint}>No expenses yet. Add fuel, parking, your phone and the rest, with a photo of each receipt: they come off your profit in the tax year.</p>
      ) : null}
      <ul className={styles.months}>
        {months.map((month) => (
          <li key={month.month}>
            <section aria-label={formatMonthYear(month.month)}>
              <div className={styles.monthHead}>
                <h3 className={styles.monthTitle}>{formatMonthYear(month.month)}</h3>
                <span className={styles.monthTotal}>{formatPence(month.total)}</span>
              </div>
              <ul className={styles.list}>
                {month.days.map((day) => {
                  const key = `${day.expense.id}@${day.date}`;
                  return editing === key ? (
                    <li key={key}>
                      <ExpenseForm {...formProps} editing={day.expense} />
                    </li>
                  ) : (
                    <ExpenseItem
                      key={key}
                      day={day}
                      couriers={couriers}
                      vehicles={vehicles}
                      onEdit={() => setEditing(key)}
                      onDelete={() => void remove(day.expense)}
                    />
                  );
                })}
              </ul>
            </section>
          </li>
        ))}
      </ul>
      {deleted ? (
        <UndoToast
          message={`${categoryLabel(deleted)} of ${formatShortDate(deleted.date)} deleted`}
          onUndo={() => {
            const before = deleted;
            setDeleted(null);
            void restoreExpense(handle, before);
          }}
          onDismiss={dismiss}
        />
      ) : null}
    </section>
  );
}

/** The contract's reminder words: "2 receipt photos are waiting to upload", "1 receipt photo could not be uploaded". */
function queueWords({ waiting, failed }: { waiting: number; failed: number }): string {
  const photos = (count: number) => `${count} receipt ${count === 1 ? 'photo' : 'photos'}`;
  const parts: string[] = [];
  if (waiting > 0) parts.push(`${photos(waiting)} ${waiting === 1 ? 'is' : 'are'} waiting to upload.`);
  if (failed > 0) parts.push(`${photos(failed)} could not be uploaded.`);
  return parts.join(' ');
}

interface ExpenseItemProps {
  day: ExpenseDay;
  couriers: readonly LocalCourier[];
  vehicles: readonly LocalVehicle[];
  onEdit: () => void;
  onDelete: () => void;
}

function ExpenseItem({ day, couriers, vehicles, onEdit, onDelete }: ExpenseItemProps) {
  const handle = useSyncHandle();
  const { expense, date, first } = day;
  const label = categoryLabel(expense);
  const repeat = repeatWords(expense);
  const courier = expense.courierId === null ? null : (couriers.find((c) => c.id === expense.courierId) ?? { name: 'Deleted courier', colour: 'transparent' });
  const vehicle = expense.vehicleId === null ? null : (vehicles.find((v) => v.id === expense.vehicleId)?.name ?? 'Deleted vehicle');
  // A running cost the driver has a vehicle for, named with none: it counts in full, so say so.
  const unlinked = expense.vehicleId === null && vehicles.length > 0 && expenseCategory(expense.category).runningCost;
  const count = expense.receipts.length;
  return (
    <li className={styles.item} data-sync={expense.syncState}>
      <div className={styles.top}>
        <div className={styles.text}>
          <p className={styles.label}>
            {label} <span className={styles.amount}>{formatPence(expense.amount)}</span>
          </p>
          <p className={styles.details}>
            {formatShortDate(date)}
            {expense.note ? ` · ${expense.note}` : ''}
          </p>
          {repeat ? <p className={styles.details}>{repeat}</p> : null}
          {courier || vehicle || unlinked ? (
            <p className={styles.tags}>
              {courier ? (
                <span className={styles.tag}>
                  <span className={styles.dot} style={{ background: courier.colour }} aria-hidden="true" />
                  {courier.name}
                </span>
              ) : null}
              {vehicle ? (
                <span className={styles.tag}>
                  <Car aria-hidden="true" />
                  {vehicle}
                </span>
              ) : null}
              {unlinked ? (
                <span className={styles.tag} data-unlinked="true">
                  <Car aria-hidden="true" />
                  No vehicle: edit to link it
                </span>
              ) : null}
            </p>
          ) : null}
          {expense.syncState === 'parked' ? <p className={styles.parked}>Not saved on the server: see the changes that could not be synced.</p> : null}
        </div>
        <div className={styles.actions}>
          <Button variant="ghost" aria-label={`Edit ${label} of ${formatShortDate(expense.date)}`} onClick={onEdit}>
            <Pencil aria-hidden="true" />
          </Button>
          <Button variant="ghost" aria-label={`Delete ${label} of ${formatShortDate(expense.date)}`} onClick={onDelete}>
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </div>
      {count > 0 && first ? (
        <ul className={styles.receipts} aria-label="Receipt photos">
          {expense.receipts.map((id, index) => (
            <StoredReceipt
              key={id}
              id={id}
              holderId={expense.id}
              name={`Receipt photo ${index + 1} of ${count}`}
              onRetry={() => void retryReceiptUpload(handle, id)}
              onRemove={() => void removeReceipt(handle, expense, id)}
            />
          ))}
        </ul>
      ) : null}
      {count > 0 && !first ? (
        <p className={styles.details}>
          {count === 1 ? 'Receipt photo' : `${count} receipt photos`} with the first payment, {formatShortDate(expense.date)}
        </p>
      ) : null}
    </li>
  );
}
