import { useSearchParams } from 'react-router';
import { Page } from '@/components/page';
import { ExpensesView } from '@/features/expenses/expenses-view';
import { MileageView } from '@/features/mileage/mileage-view';

// Scaffold from the lead: expenses13 owns this page (tabs, layout, the add= parameter).
export function SpendingPage() {
  const [params] = useSearchParams();
  return <Page title="Expenses & mileage">{params.get('view') === 'mileage' ? <MileageView /> : <ExpensesView />}</Page>;
}
