import 'fake-indexeddb/auto';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COURIER } from '@/sync/default-courier';
import { saveRecord } from '@/sync/commands';
import { renderWithSync } from '@/testing/render-with-sync';
import { refuseLatestChange } from '@/testing/refuse';
import { createTestSyncHandle } from '@/testing/sync-handle';
import { starterRules } from './card-form-schema';
import { saveCard } from './commands';
import { RateCardEditor } from './rate-card-editor';

const LABEL_PROBLEM = 'Label must not contain line breaks, control characters or text-direction marks';
const TIER_PROBLEM = 'Tier 1: rate must be between £0.01 and £100.00';
const OTHER_PROBLEM = 'Courier id must be a UUID';

// A push refusal names its problems by field (issue 32): the card editor shows each beside its
// field, the per-stop list's beside every tier box, and the rest above the buttons.
describe('a refused rate card change', () => {
  it('shows each problem beside its field until the driver changes it', async () => {
    const handle = createTestSyncHandle();
    const courier = await saveRecord(handle.db, 'courier', DEFAULT_COURIER);
    const saved = await saveCard(handle, { ...starterRules(), courierId: courier.id, validFrom: '2025-09-01' });
    await refuseLatestChange(handle.db, saved.id, { label: [LABEL_PROBLEM], perStop: [TIER_PROBLEM], courierId: [OTHER_PROBLEM] });
    const card = (await handle.db.rateCards.get(saved.id))!;

    const app = renderWithSync(
      <RateCardEditor courierId={courier.id} courierName="My courier" card={card} first={false} takenDates={[]} today="2025-09-10" onSaved={() => {}} onCancel={() => {}} />,
      { handle },
    );
    const label = await screen.findByLabelText(/^Label/);
    await waitFor(() => expect(label).toHaveAccessibleDescription(LABEL_PROBLEM));
    expect(label).toBeInvalid();
    for (const box of [screen.getByLabelText('Tier 1: up to how many stops'), screen.getByLabelText('Tier 1: rate (£ per stop)'), screen.getByLabelText('After that: rate (£ per stop)')]) {
      expect(box).toHaveAccessibleDescription(TIER_PROBLEM);
      expect(box).toBeInvalid();
    }
    // A problem with no field of its own on the form is said above the buttons.
    expect(screen.getByRole('alert')).toHaveTextContent(OTHER_PROBLEM);

    // The driver fixes the label: its problem goes, the tiers' stays until they change.
    await app.user.type(label, 'x');
    expect(label).not.toHaveAccessibleDescription(LABEL_PROBLEM);
    expect(screen.getByLabelText('Tier 1: rate (£ per stop)')).toHaveAccessibleDescription(TIER_PROBLEM);
  });

  it("says a first card's start day problem above the buttons, as the form shows no start day", async () => {
    const handle = createTestSyncHandle();
    const courier = await saveRecord(handle.db, 'courier', DEFAULT_COURIER);
    const saved = await saveCard(handle, { ...starterRules(), courierId: courier.id });
    const problem = 'Valid from must be a real day written YYYY-MM-DD';
    await refuseLatestChange(handle.db, saved.id, { validFrom: [problem] });
    const card = (await handle.db.rateCards.get(saved.id))!;

    renderWithSync(<RateCardEditor courierId={courier.id} courierName="My courier" card={card} first takenDates={[]} today="2025-09-10" onSaved={() => {}} onCancel={() => {}} />, { handle });
    expect(await screen.findByRole('alert')).toHaveTextContent(problem);
  });
});
