import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { saveRecord } from '@/sync/commands';
import { BOUNDS } from '@/sync/contract.generated';
import { renderWithSync } from '@/testing/render-with-sync';
import { refuseLatestChange } from '@/testing/refuse';
import { createTestSyncHandle, makeStatementCheckContent } from '@/testing/sync-handle';
import { TypedLineForm } from './typed-line-form';
import { typedLineMessages } from './typed-line-form-schema';

async function openForm() {
  const handle = createTestSyncHandle();
  const check = await saveRecord(handle.db, 'invoice', makeStatementCheckContent());
  const app = renderWithSync(<TypedLineForm check={check} />, { handle });
  await app.user.click(screen.getByRole('button', { name: 'Type a line' }));
  return { ...app, handle, form: screen.getByRole('form', { name: 'Type a line' }) };
}

describe('a line typed from a statement', () => {
  it('says what is wrong beside the field, with the bound the contract gives', async () => {
    const { user, form, handle } = await openForm();
    const quantity = within(form).getByLabelText('Quantity');
    await user.clear(quantity);
    await user.type(quantity, String(BOUNDS.statementLine.maxQuantity + 1));
    await user.click(within(form).getByRole('button', { name: 'Add the line' }));
    expect(quantity).toHaveAccessibleDescription(typedLineMessages.quantity);
    expect(within(form).getByLabelText('Amount (£)')).toHaveAccessibleDescription(typedLineMessages.amount);
    expect(await handle.db.statementLines.count()).toBe(0);
  });

  // A push refusal names its problems by field (issue 32): the line added last shows them beside
  // the form's fields, the rest above the buttons.
  it("shows a refused line's problems beside its fields", async () => {
    const { user, form, handle } = await openForm();
    await user.selectOptions(within(form).getByLabelText('Type'), 'bonus');
    await user.type(within(form).getByLabelText('Amount (£)'), '5');
    await user.type(within(form).getByLabelText('Reference (optional)'), 'Peak');
    await user.click(within(form).getByRole('button', { name: 'Add the line' }));
    await waitFor(async () => expect(await handle.db.statementLines.count()).toBe(1));
    const [line] = await handle.db.statementLines.toArray();

    const amountProblem = 'Amount must not be below £0.00 (only a deduction or an adjustment takes money back)';
    const keyProblem = 'Line key must be 1 to 64 lowercase letters, digits, colons or hyphens';
    await refuseLatestChange(handle.db, line!.id, { amount: [amountProblem], lineKey: [keyProblem] });

    const amount = within(form).getByLabelText('Amount (£)');
    await waitFor(() => expect(amount).toHaveAccessibleDescription(amountProblem));
    expect(amount).toBeInvalid();
    expect(within(form).getByRole('alert')).toHaveTextContent(keyProblem);
    await user.type(amount, '6');
    expect(amount).not.toHaveAccessibleDescription(amountProblem);
  });
});
