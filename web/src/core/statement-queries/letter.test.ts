import { describe, expect, it } from 'vitest';
import { chainItems } from './chain';
import { letterOf, letterText } from './letter';
import type { QueryContent } from './query';

const items = chainItems([
  { date: '2026-03-02', kind: 'fewerStops', words: '3 stops logged but not paid', logged: '121 stops', paid: '118 stops', cardRate: 150, amount: 450 },
  { date: '2026-03-04', kind: 'dayNotInLog', words: 'Paid for a day not in your log', logged: 'no day logged', paid: '£7.00', cardRate: null, amount: -700 },
  { date: null, kind: 'linesAgainstTotal', words: 'The statement’s lines add up to £10.00, its total says £9.75', logged: '£10.00', paid: '£9.75', cardRate: null, amount: 25 },
]);

const query: QueryContent = {
  statementCheckId: 'c1',
  madeOn: '2026-03-20',
  itemsVersion: 1,
  items,
  total: 450 - 700 + 25,
  sentOn: null,
  answeredOn: null,
  paidBackAmount: null,
  paidBackOn: null,
  paidBackCheckId: null,
  closedOn: null,
  note: '',
};

const context = { courierName: 'Evri', periodStart: '2026-03-01', periodEnd: '2026-03-07', reference: 'S-10', from: 'Sam Driver' };

describe('the query letter', () => {
  it('is dated, lists each frozen difference with its figures and amount, and the total', () => {
    expect(letterText(letterOf(query, context))).toBe(
      [
        'Query about the statement for 01/03/2026 to 07/03/2026',
        'Dated 20/03/2026',
        '',
        'To Evri,',
        '',
        'I have checked your statement for 01/03/2026 to 07/03/2026 (reference S-10) against my own record of each day and the rate card in force on it. These 3 differences are not explained by the statement:',
        '',
        '1. Mon 02/03/2026: 3 stops logged but not paid',
        '   Logged: 121 stops · Paid: 118 stops · Card’s rate: £1.50',
        '   Amount: £4.50',
        '2. Wed 04/03/2026: Paid for a day not in your log',
        '   Logged: no day logged · Paid: £7.00',
        '   Amount: −£7.00 (paid over my log)',
        '3. Whole statement: The statement’s lines add up to £10.00, its total says £9.75',
        '   Logged: £10.00 · Paid: £9.75',
        '   Amount: £0.25',
        '',
        'Total: −£2.25 (paid over my log)',
        '',
        'Please pay the total with the next statement or tell me in writing why it is not due. I keep my own dated record of each day.',
        '',
        'Sam Driver',
        '',
        `Recorded 20/03/2026, chain ${items[2]!.hash.slice(0, 8)}`,
        '',
      ].join('\n'),
    );
  });

  it('says what is owed when the total is owed, and one difference in the singular, unsigned without a name', () => {
    const one = { ...query, items: items.slice(0, 1), total: 450 };
    const letter = letterOf(one, { ...context, reference: '', from: '' });
    expect(letter.total).toBe('Total owed to me: £4.50');
    expect(letter.opening).toContain('for 01/03/2026 to 07/03/2026 against');
    expect(letter.opening).toContain('This difference is not explained');
    expect(letterText(letter)).not.toContain('\n\n\n');
    expect(letter.recorded).toBe(`Recorded 20/03/2026, chain ${items[0]!.hash.slice(0, 8)}`);
  });
});
