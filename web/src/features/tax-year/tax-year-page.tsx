import { Page } from '@/components/page';

// Scaffold from the lead: tax13 replaces this with the tax-year view.
export function TaxYearPage() {
  return <Page title="Tax year" />;
}
