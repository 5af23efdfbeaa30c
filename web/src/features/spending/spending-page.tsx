import { useSearchParams } from 'react-router';
import { Page } from '@/components/page';
import { ViewTabs } from '@/components/view-tabs';
import { spendingView, type SpendingView } from '@/lib/paths';
import { ExpensesView } from '@/features/expenses/expenses-view';
import { MileageView } from '@/features/mileage/mileage-view';
import { FuelView } from '@/features/fuel-fills/fuel-view';

const VIEWS = [
  { id: 'expenses', label: 'Expenses', to: spendingView('expenses') },
  { id: 'mileage', label: 'Mileage', to: spendingView('mileage') },
  { id: 'fuel', label: 'Fuel', to: spendingView('fuel') },
] as const;

function viewOf(params: URLSearchParams): SpendingView {
  const view = params.get('view');
  return view === 'mileage' || view === 'fuel' ? view : 'expenses';
}

/**
 * What the business costs: expenses with their receipt photos, the mileage log with its
 * vehicles, and each vehicle's fuel fills (a log for economy, not an expense). Each view opens
 * its add form with `add=1` (the dashboard's buttons).
 */
export function SpendingPage() {
  const [params] = useSearchParams();
  const view = viewOf(params);
  return (
    <Page title="Spending" intro="Expenses with their receipts, business mileage with your vehicles, and their fuel.">
      <ViewTabs label="Spending views" current={view} tabs={VIEWS} />
      {view === 'mileage' ? <MileageView /> : view === 'fuel' ? <FuelView /> : <ExpensesView />}
    </Page>
  );
}
