import { EXPENSE_CATEGORIES, expenseCategory } from '@/core/tax/expense-categories';
import type { ExpenseCategory } from '@/sync/types';
import styles from './expense-category-options.module.css';

/** The expense categories as a picker's options, "Choose…" first: what an expense or a deduction is for. */
export function ExpenseCategoryOptions() {
  return (
    <>
      <option value="">Choose…</option>
      {EXPENSE_CATEGORIES.map((category) => (
        <option key={category.id} value={category.id}>
          {category.label}
        </option>
      ))}
    </>
  );
}

/**
 * The chosen category in full under its picker: a closed native picker cuts a long name on a
 * phone ("Parking, tolls and congestion c…") and cannot wrap it. Hidden from screen readers,
 * which read the picker's whole choice already.
 */
export function ChosenCategory({ category }: { category: ExpenseCategory | '' }) {
  const label = category === '' ? '' : expenseCategory(category).label;
  // About what a phone's full-width picker shows whole; shorter names need no second line.
  if (label.length <= PICKER_FITS_CHARS) return null;
  return (
    <p className={styles.chosen} aria-hidden="true">
      {label}
    </p>
  );
}

const PICKER_FITS_CHARS = 26;
