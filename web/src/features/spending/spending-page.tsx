import { useSearchParams } from 'react-router';
import { Page } from '@/components/page';
import { ViewTabs } from '@/components/view-tabs';
import { spendingView, type SpendingView } from '@/lib/paths';
import { ExpensesView } from '@/features/expenses/expenses-view';
import { MileageView } from '@/features/mileage/mileage-view';

const VIEWS = [
  { id: 'expenses', label: 'Expenses', to: spendingView('expenses') },
  { id: 'mileage', label: 'Mileage', to: spendingView('mileage') },
] as const;

function viewOf(params: URLSearchParams): SpendingView {
  return params.get('view') === 'mileage' ? 'mileage' : 'expenses';
}

/**
 * What the business costs: expenses with their receipt photos, and the mileage log with its
 * vehicles. Each view opens its add form with `add=1` (the dashboard's buttons).
 */
export function SpendingPage() {
  const [params] = useSearchParams();
  const view = viewOf(params);
  return (
    <Page title="Spending" intro="Expenses with their receipts, and business mileage with your vehicles.">
      <ViewTabs label="Spending views" current={view} tabs={VIEWS} />
      {view === 'mileage' ? <MileageView /> : <ExpensesView />}
    </Page>
  );
}
