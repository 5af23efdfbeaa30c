import { Page } from '@/components/page';

// The tier editor arrives with the synced settings record.
export function SettingsPage() {
  return <Page title="Payment Settings" />;
}
