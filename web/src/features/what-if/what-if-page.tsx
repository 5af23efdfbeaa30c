import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Page } from '@/components/page';
import { SelectField, TextField } from '@/components/text-field';
import panel from '@/components/panel.module.css';
import { compareCard, withPerStopChange, type CardComparison } from '@/core/pay/compare-card';
import { useEntries } from '@/features/entries/use-entries';
import { formatPence, formatShortDate } from '@/lib/format';
import { parsePounds, penceToPounds } from '@/core/money/money';
import { cardInForce } from '@/core/pay/pay';
import { periodHolding, periodsBetween, periodWords, type PayPeriod } from '@/core/pay-periods/pay-period';
import { usePaySetup } from '@/lib/sync-react/use-pay-setup';
import { useNow } from '@/lib/use-now';
import { addDays, localDay, weekStart } from '@/lib/week';
import type { LocalCourier, LocalRateCard, RateCardContent } from '@/sync/types';
import styles from './what-if.module.css';

/** The choice of card: one of the courier's saved cards by id, or the one being considered. */
const CONSIDERED = 'considered';
const CUSTOM = 'custom';
/** Pay periods offered in the list: about a year of weekly ones. */
const PERIODS_OFFERED = 52;

/**
 * "What would this period have paid under another card" (issue 28): the driver's logged days of
 * a period re-priced under a saved card or one typed in and not saved, day by day, with the
 * total and £ per hour before and after. Nothing here writes: re-pricing saved days is the rate
 * card's own offer. Opened from a rate card (?courier=&card=) or a pay period (?courier=&from=&to=).
 */
export function WhatIfPage() {
  const pay = usePaySetup();
  const entries = useEntries();
  const [params] = useSearchParams();
  const today = localDay(useNow());
  if (!pay || !entries) return <Page title="What would it have paid" />;
  const courier = pay.couriers.find((c) => c.id === params.get('courier')) ?? pay.couriers[0];
  if (!courier) return <Page title="What would it have paid" intro="Add a courier and its rate card first (More, then Payment Settings)." />;
  return <WhatIf key={courier.id} courier={courier} couriers={pay.couriers} cards={pay.cards.filter((c) => c.courierId === courier.id)} entries={entries} today={today} params={params} />;
}

interface WhatIfProps {
  courier: LocalCourier;
  couriers: readonly LocalCourier[];
  cards: readonly LocalRateCard[];
  entries: NonNullable<ReturnType<typeof useEntries>>;
  today: string;
  params: URLSearchParams;
}

function cardName(card: LocalRateCard): string {
  return `Rates from ${formatShortDate(card.validFrom)}${card.label ? ` (${card.label})` : ''}`;
}

/** "-0.65", "+1", "0.10" → signed pence; null when it is not an amount. */
function signedPounds(input: string): number | null {
  const trimmed = input.trim().replace(/^[−–]/, '-');
  const negative = trimmed.startsWith('-');
  const pence = parsePounds(trimmed.replace(/^[+-]/, ''));
  return pence === null ? null : negative ? -pence : pence;
}

/** A rate as the field shows it: blank when the card does not pay that way. */
function poundsOrBlank(pence: number | null | undefined): string {
  return pence === null || pence === undefined ? '' : penceToPounds(pence);
}

/** An optional rate typed in pounds: blank is "not paid this way". */
function optionalPence(input: string): number | null | undefined {
  if (input.trim() === '') return null;
  return parsePounds(input) ?? undefined;
}

function WhatIf({ courier, couriers, cards, entries, today, params }: WhatIfProps) {
  const [, setParams] = useSearchParams();
  const periods = useMemo(() => periodsBetween(courier, addDays(today, -7 * PERIODS_OFFERED), today).reverse(), [courier, today]);
  const asked: PayPeriod | null = params.get('from') && params.get('to') ? { start: params.get('from')!, end: params.get('to')! } : null;
  const askedIndex = asked ? periods.findIndex((p) => p.start === asked.start && p.end === asked.end) : -1;
  const monthStart = `${today.slice(0, 8)}01`;
  const ranges: { id: string; label: string; period: PayPeriod }[] = [
    ...periods.map((period, index) => ({ id: `period-${index}`, label: `Pay period ${periodWords(period)}`, period })),
    { id: 'week', label: 'This week', period: { start: weekStart(today), end: today } },
    { id: 'month', label: 'This month', period: { start: monthStart, end: today } },
    { id: 'last-month', label: 'Last month', period: { start: `${addDays(monthStart, -1).slice(0, 8)}01`, end: addDays(monthStart, -1) } },
  ];
  const [rangeId, setRangeId] = useState(asked ? (askedIndex >= 0 ? `period-${askedIndex}` : CUSTOM) : 'period-0');
  const [from, setFrom] = useState(asked?.start ?? periodHolding(courier, today).start);
  const [to, setTo] = useState(asked?.end ?? today);
  const period = rangeId === CUSTOM ? { start: from, end: to } : (ranges.find((r) => r.id === rangeId)?.period ?? ranges[0]!.period);

  const inForce = cardInForce(cards, courier.id, today) ?? cards[cards.length - 1] ?? null;
  const askedCard = cards.find((c) => c.id === params.get('card'));
  const [cardChoice, setCardChoice] = useState<string>(askedCard?.id ?? CONSIDERED);
  const [baseId, setBaseId] = useState(askedCard?.id ?? inForce?.id ?? '');
  const base = cards.find((c) => c.id === baseId) ?? inForce;
  const [perStopChange, setPerStopChange] = useState('');
  const [perParcel, setPerParcel] = useState(poundsOrBlank(base?.perParcel));
  const [hourly, setHourly] = useState(poundsOrBlank(base?.hourly));
  const [dayRate, setDayRate] = useState(poundsOrBlank(base?.dayRate));

  /** A new starting card brings its own rates into the fields. */
  function startFrom(id: string) {
    const chosen = cards.find((c) => c.id === id);
    setBaseId(id);
    setPerParcel(poundsOrBlank(chosen?.perParcel));
    setHourly(poundsOrBlank(chosen?.hourly));
    setDayRate(poundsOrBlank(chosen?.dayRate));
  }

  const change = perStopChange.trim() === '' ? 0 : signedPounds(perStopChange);
  const typed = { perParcel: optionalPence(perParcel), hourly: optionalPence(hourly), dayRate: optionalPence(dayRate) };
  const errors = {
    perStopChange: change === null ? 'Type an amount in pounds, for example -0.65 for a 65p cut' : undefined,
    perParcel: typed.perParcel === undefined ? 'Type pounds and pence, for example 0.62' : undefined,
    hourly: typed.hourly === undefined ? 'Type pounds and pence, for example 14.20' : undefined,
    dayRate: typed.dayRate === undefined ? 'Type pounds and pence, for example 110' : undefined,
  };
  let card: RateCardContent | null = null;
  if (cardChoice === CONSIDERED) {
    if (base && change !== null && typed.perParcel !== undefined && typed.hourly !== undefined && typed.dayRate !== undefined) {
      card = withPerStopChange({ ...base, perParcel: typed.perParcel, hourly: typed.hourly, dayRate: typed.dayRate }, change);
    }
  } else {
    card = cards.find((c) => c.id === cardChoice) ?? null;
  }
  const badRange = period.start > period.end;
  const result = card && !badRange ? compareCard(entries, courier.id, period.start, period.end, card) : null;

  return (
    <Page title="What would it have paid" intro="Your logged days re-priced under another card, or one you are considering. Nothing is saved or changed.">
      <section className={panel.panel} aria-label="Days and card">
        {couriers.length > 1 ? (
          <SelectField label="Courier" value={courier.id} onChange={(e) => setParams({ courier: e.target.value }, { replace: true })}>
            {couriers.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        <SelectField label="Days" value={rangeId} onChange={(e) => setRangeId(e.target.value)}>
          {ranges.map((range) => (
            <option key={range.id} value={range.id}>
              {range.label}
            </option>
          ))}
          <option value={CUSTOM}>Dates I choose</option>
        </SelectField>
        {rangeId === CUSTOM ? (
          <div className={styles.pair}>
            <TextField label="From" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
            <TextField label="To" type="date" value={to} error={badRange ? 'The last day is before the first' : undefined} onChange={(e) => setTo(e.target.value)} />
          </div>
        ) : null}
        <SelectField label="Card" value={cardChoice} onChange={(e) => setCardChoice(e.target.value)}>
          {cards.map((c) => (
            <option key={c.id} value={c.id}>
              {cardName(c)}
            </option>
          ))}
          <option value={CONSIDERED}>A card I am considering</option>
        </SelectField>
        {cardChoice === CONSIDERED ? (
          <fieldset className={styles.considered}>
            <legend>The card you are considering</legend>
            {cards.length > 0 ? (
              <SelectField label="Start from" value={base?.id ?? ''} onChange={(e) => startFrom(e.target.value)}>
                {cards.map((c) => (
                  <option key={c.id} value={c.id}>
                    {cardName(c)}
                  </option>
                ))}
              </SelectField>
            ) : null}
            <TextField label="Change each per-stop rate by (£)" optional inputMode="text" placeholder="-0.65" value={perStopChange} error={errors.perStopChange} onChange={(e) => setPerStopChange(e.target.value)} />
            <TextField label="Per parcel (£)" optional inputMode="decimal" value={perParcel} error={errors.perParcel} onChange={(e) => setPerParcel(e.target.value)} />
            <TextField label="Per hour (£)" optional inputMode="decimal" value={hourly} error={errors.hourly} onChange={(e) => setHourly(e.target.value)} />
            <TextField label="Day rate (£)" optional inputMode="decimal" value={dayRate} error={errors.dayRate} onChange={(e) => setDayRate(e.target.value)} />
          </fieldset>
        ) : null}
      </section>
      {result ? <ComparisonView result={result} period={period} /> : null}
    </Page>
  );
}

function ComparisonView({ result, period }: { result: CardComparison; period: PayPeriod }) {
  const signed = (pence: number) => (pence > 0 ? `+${formatPence(pence)}` : formatPence(pence));
  return (
    <section className={panel.panel} aria-labelledby="what-if-result">
      <h2 id="what-if-result" className={panel.panelTitle}>
        {periodWords(period)}
      </h2>
      {result.days.length === 0 ? (
        <p className={panel.muted}>No days logged for this courier in these dates.</p>
      ) : (
        <>
          <dl className={styles.totals} aria-label="Totals">
            <div>
              <dt>Paid</dt>
              <dd>{formatPence(result.paid)}</dd>
            </div>
            <div>
              <dt>Would pay</dt>
              <dd>{formatPence(result.wouldPay)}</dd>
            </div>
            <div>
              <dt>Difference</dt>
              <dd data-sign={Math.sign(result.difference)}>{signed(result.difference)}</dd>
            </div>
            <div>
              <dt>£ per hour</dt>
              <dd>{result.perHourPaid === null || result.perHourWouldPay === null ? 'Log start and finish times to see it' : `${formatPence(result.perHourPaid)} → ${formatPence(result.perHourWouldPay)}`}</dd>
            </div>
          </dl>
          <table className={styles.days}>
            <caption className="visually-hidden">Each day paid and under the card</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Paid</th>
                <th scope="col">Would pay</th>
                <th scope="col">Difference</th>
              </tr>
            </thead>
            <tbody>
              {result.days.map((day) => (
                <tr key={day.id}>
                  <th scope="row">{formatShortDate(day.date)}</th>
                  <td>{formatPence(day.paid)}</td>
                  <td>{formatPence(day.wouldPay)}</td>
                  <td data-sign={Math.sign(day.difference)}>{signed(day.difference)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">{result.days.length === 1 ? '1 day' : `${result.days.length} days`}</th>
                <td>{formatPence(result.paid)}</td>
                <td>{formatPence(result.wouldPay)}</td>
                <td data-sign={Math.sign(result.difference)}>{signed(result.difference)}</td>
              </tr>
            </tfoot>
          </table>
        </>
      )}
    </section>
  );
}
