import { Page } from '@/components/page';

// The greeting, stat cards, entry form and Recent Entries arrive with the data layer.
export function DashboardPage() {
  return <Page title="Dashboard" />;
}
