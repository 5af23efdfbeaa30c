import { EXPENSE_CATEGORIES } from '@/lib/tax/expense-categories';

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
