// Scaffold from the lead: expenses13 replaces this with the expenses list and form.
export function ExpensesView() {
  return <h2>Expenses</h2>;
}
