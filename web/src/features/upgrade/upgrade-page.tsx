import { Page } from '@/components/page';

// The Free / Pro comparison and checkout arrive with billing.
export function UpgradePage() {
  return <Page title="Upgrade to Pro" />;
}
