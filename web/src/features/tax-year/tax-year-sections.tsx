import type { ReactNode } from 'react';
import panel from '@/components/panel.module.css';
import { countWords, formatPence } from '@/lib/format';
import type { QuarterStatus, TaxSummary } from '@/core/tax/tax-summary';
import { recordsKeptUntil, taxYearLabel, startYearOf, taxYearRates } from '@/core/tax/tax-year';
import { formatDayMonth, formatLongDate } from './long-date';
import styles from './tax-year-page.module.css';

const count = new Intl.NumberFormat('en-GB');
const percent = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });
const pretty = (label: string) => label.replace('-', '–');

export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className={`${panel.panel} ${styles.section}`} aria-labelledby={id}>
      <h2 id={id} className={panel.panelTitle}>
        {title}
      </h2>
      {children}
    </section>
  );
}

export function Row({ label, hint, amount, total }: { label: ReactNode; hint?: ReactNode; amount: number; total?: boolean }) {
  return (
    <li className={`${styles.row} ${total ? styles.total : ''}`}>
      <span className={styles.rowLabel}>
        <span>{label}</span>
        {hint ? <span className={styles.rowHint}>{hint}</span> : null}
      </span>
      <span className={styles.amount}>{formatPence(amount)}</span>
    </li>
  );
}

export function IncomeSection({ summary }: { summary: TaxSummary }) {
  const { couriers, turnover, deducted } = summary.totals;
  return (
    <Section id="tax-income" title="Turnover by courier">
      {couriers.length === 0 ? (
        <p className={styles.muted}>No days logged in this tax year yet.</p>
      ) : (
        <ul className={styles.rows} aria-label="Turnover by courier">
          {couriers.map((courier) => (
            <Row
              key={courier.courierId}
              label={courier.name}
              hint={`${countWords(courier.days, 'day')}${courier.deductions > 0 ? `, ${formatPence(courier.deductions)} deducted` : ''}`}
              amount={courier.turnover}
            />
          ))}
          <Row label="Turnover" hint="the saved totals of your days" amount={turnover} total />
          {deducted > 0 ? <Row label="Courier deductions" hint="taken off your pay: costs below, by what each is for" amount={deducted} /> : null}
        </ul>
      )}
    </Section>
  );
}

/** Why a category's amount is what it is: its box, what couriers took of it, what the mileage rate covers, the business share. */
function categoryHint(category: TaxSummary['totals']['costs']['byCategory'][number]): string {
  const counted = category.paid - category.coveredByMileage;
  return [
    `SA103 box ${category.box}`,
    category.deducted > 0 ? `${formatPence(category.deducted)} taken by couriers${category.unsaid > 0 ? ` (${formatPence(category.unsaid)} not said what for)` : ''}` : null,
    category.coveredByMileage > 0 ? `${formatPence(category.coveredByMileage)} covered by the mileage rate, not counted` : null,
    category.allowed !== counted ? `business share of ${formatPence(counted)}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The costs of the year by category, expenses and courier deductions together, each in its SA103 box. */
export function ExpensesSection({ summary, warnings }: { summary: TaxSummary; warnings?: ReactNode }) {
  const { costs } = summary.totals;
  const shown = costs.byCategory.filter((category) => category.paid > 0);
  return (
    <Section id="tax-expenses" title="Expenses by category">
      {shown.length === 0 ? (
        <p className={styles.muted}>No expenses in this tax year yet.</p>
      ) : (
        <ul className={styles.rows} aria-label="Expenses by category">
          {shown.map((category) => (
            <Row key={category.category} label={category.label} hint={categoryHint(category)} amount={category.allowed} />
          ))}
          <Row label="Expenses" hint="paid and taken by couriers" amount={costs.allowed} total />
        </ul>
      )}
      {costs.coveredByMileage > 0 ? (
        <p className={styles.muted}>
          Fuel, repairs, insurance, tax and hire of a vehicle on the flat mileage rate, paid by you or taken by a courier, are covered by the rate, so they are
          shown but never counted.
        </p>
      ) : null}
      {warnings}
    </Section>
  );
}

export function MileageSection({ summary }: { summary: TaxSummary }) {
  const { mileage, costs } = summary.totals;
  const { rates } = taxYearRates(summary.year);
  const flat = mileage.vehicles.filter((vehicle) => vehicle.method === 'flatRate' && vehicle.businessMiles > 0);
  return (
    <Section id="tax-mileage" title="Mileage claim">
      {flat.length === 0 && costs.actualCostVehicles.length === 0 ? (
        <p className={styles.muted}>No business miles logged in this tax year.</p>
      ) : (
        <ul className={styles.rows} aria-label="Mileage claim">
          {flat.map((vehicle) => {
            const rate = rates.mileage[vehicle.type];
            return (
              <Row
                key={vehicle.vehicleId}
                label={vehicle.name}
                hint={`${countWords(vehicle.businessMiles, 'business mile')}${rate ? (rate.firstMilesPence === rate.afterPence ? ` at ${rate.firstMilesPence}p` : ` at ${rate.firstMilesPence}p, ${rate.afterPence}p after ${count.format(rate.thresholdMiles)}`) : ''}`}
                amount={vehicle.claimPence}
              />
            );
          })}
          {costs.actualCostVehicles.map((vehicle) => (
            <Row
              key={vehicle.vehicleId}
              label={`${vehicle.name} (actual costs)`}
              hint={
                vehicle.totalMiles > 0
                  ? `${percent.format((vehicle.businessMiles / vehicle.totalMiles) * 100)}% business use (${count.format(vehicle.businessMiles)} of ${countWords(vehicle.totalMiles, 'mile')}) of ${formatPence(vehicle.costs)} costs, counted in expenses (box 20)`
                  : `No miles logged, so none of its ${formatPence(vehicle.costs)} costs can be counted yet`
              }
              amount={vehicle.allowed}
            />
          ))}
          <Row label="Mileage claim" hint="the flat rate per business mile" amount={mileage.claimPence} total />
        </ul>
      )}
    </Section>
  );
}

export function EstimateSection({ summary }: { summary: TaxSummary }) {
  const { profit, incomeTax, class4, class2 } = summary;
  const choices = [
    { key: 'expenses', label: 'With your expenses and mileage', value: profit.withExpenses, hint: `${formatPence(summary.totals.allowable)} of costs` },
    { key: 'allowance', label: 'With the trading allowance', value: profit.withAllowance, hint: `${formatPence(profit.allowance)} instead of every cost` },
  ] as const;
  return (
    <Section id="tax-estimate" title="Profit and tax estimate">
      <dl className={styles.figures} aria-label="Profit">
        {choices.map((choice) => (
          <div key={choice.key} className={`${styles.figure} ${styles.choice}`} data-better={profit.better === choice.key}>
            <dt>{choice.label}</dt>
            <dd>{formatPence(choice.value)}</dd>
            {/* A second dd, not a span: a dl's groups may hold only dt and dd (axe definition-list). */}
            <dd className={styles.choiceHint}>{choice.hint}</dd>
          </div>
        ))}
      </dl>
      <p className={styles.muted}>
        {profit.better === 'allowance'
          ? 'The £1,000 trading allowance leaves the lower profit: claim it instead of your expenses.'
          : 'Your expenses leave the lower profit (or the same): claim them rather than the trading allowance.'}
      </p>
      <ul className={styles.rows} aria-label="Tax estimate">
        <Row label="Profit" hint={`Personal Allowance ${formatPence(incomeTax.personalAllowance)}`} amount={profit.taxable} />
        {incomeTax.bands.map((band) => (
          <Row key={band.name} label={`${band.name} (${band.percent}%)`} hint={`on ${formatPence(band.income)}`} amount={band.tax} />
        ))}
        <Row label="Income Tax" hint={summary.region === 'scotland' ? 'Scottish bands' : 'bands for England, Wales and Northern Ireland'} amount={incomeTax.tax} total />
        <Row
          label="Class 4 National Insurance"
          hint={`${class4.mainPercent}% on ${formatPence(class4.mainProfits)}${class4.upperProfits > 0 ? `, ${class4.upperPercent}% on ${formatPence(class4.upperProfits)}` : ''}`}
          amount={class4.contribution}
          total
        />
        {class2.payable ? <Row label="Class 2 National Insurance" amount={class2.contribution} total /> : null}
      </ul>
      {!class2.payable ? <p className={styles.muted}>Class 2 National Insurance is voluntary or not due in this year, so nothing is added for it.</p> : null}
    </Section>
  );
}

export function DatesSection({ summary }: { summary: TaxSummary }) {
  const next = pretty(taxYearLabel(startYearOf(summary.year) + 1));
  return (
    <Section id="tax-dates" title="Paying HMRC">
      <ul className={styles.rows} aria-label="Self Assessment dates">
        <li className={styles.row}>
          <span className={styles.rowLabel}>
            <span>{formatLongDate(summary.dates.returnAndBalance)}</span>
            <span className={styles.rowHint}>Online return and balancing payment for {pretty(summary.year)} (less any payments on account made for it)</span>
          </span>
        </li>
        {summary.paymentsOnAccount ? (
          <li className={styles.row}>
            <span className={styles.rowLabel}>
              <span>
                {formatLongDate(summary.paymentsOnAccount.dates[0])} and {formatLongDate(summary.paymentsOnAccount.dates[1])}
              </span>
              <span className={styles.rowHint}>Payments on account towards {next}: half of this year&rsquo;s Income Tax and Class 4 each, as it is £1,000 or more</span>
            </span>
            <span className={styles.amount}>{formatPence(summary.paymentsOnAccount.each)} each</span>
          </li>
        ) : (
          <li className={styles.row}>
            <span className={styles.rowLabel}>
              <span>No payments on account</span>
              <span className={styles.rowHint}>Income Tax and Class 4 are under £1,000 for this year</span>
            </span>
          </li>
        )}
      </ul>
      <p className={styles.muted}>Keep this year&rsquo;s records until at least {formatLongDate(recordsKeptUntil(summary.year))}.</p>
      <h3 className={styles.label}>Making Tax Digital for Income Tax</h3>
      <ul className={styles.rows} aria-label="Making Tax Digital">
        {summary.mtd.map((year) => (
          <li key={year.year} className={styles.row}>
            <span className={styles.rowLabel}>
              <span>
                From 6 April {startYearOf(year.year)}: {year.required ? 'you must use it' : 'not required on your logs'}
              </span>
              <span className={styles.rowHint}>
                Turnover in {pretty(year.qualifyingYear)} {formatPence(year.income)}, {year.required ? 'over' : 'not over'} {formatPence(year.threshold)}
              </span>
            </span>
          </li>
        ))}
      </ul>
      {summary.simplifiedUpdates ? <p className={styles.muted}>Under £90,000 turnover, quarterly updates can be just your totals of income and expenses.</p> : null}
    </Section>
  );
}

const STATUS: Record<QuarterStatus, string> = { ended: 'Ended', current: 'In progress', notStarted: 'Not started' };

export function QuartersSection({ summary }: { summary: TaxSummary }) {
  return (
    <Section id="tax-quarters" title="Quarters (cumulative)">
      {summary.quarters[0] ? (
        <p className={styles.muted}>
          Each quarterly update adds up everything from {formatDayMonth(summary.quarters[0].periodStart)} to the quarter&rsquo;s end ({summary.election} quarters).
        </p>
      ) : (
        <p className={styles.muted}>This version has no Making Tax Digital quarter dates for {pretty(summary.year)}.</p>
      )}
      <ol className={styles.quarters} aria-label="Quarters">
        {summary.quarters.map((quarter) => (
          <li key={quarter.number} className={styles.quarter} aria-label={`Quarter ${quarter.number}`}>
            <div className={styles.quarterHead}>
              <span className={styles.quarterTitle}>
                Q{quarter.number}: {formatDayMonth(quarter.from)} – {formatDayMonth(quarter.to)}
              </span>
              <span className={styles.status} data-status={quarter.status}>
                {STATUS[quarter.status]}
              </span>
            </div>
            <span className={styles.rowHint}>Update due {formatLongDate(quarter.due)}</span>
            {quarter.status === 'notStarted' ? (
              <span className={styles.muted}>Nothing to add up yet.</span>
            ) : (
              <dl className={styles.quarterFigures}>
                <div>
                  <dt>Turnover</dt>
                  <dd>{formatPence(quarter.totals.turnover)}</dd>
                </div>
                <div>
                  <dt>Expenses</dt>
                  <dd>{formatPence(quarter.totals.costs.allowed)}</dd>
                </div>
                <div>
                  <dt>Mileage claim</dt>
                  <dd>{formatPence(quarter.totals.mileage.claimPence)}</dd>
                </div>
                <div>
                  <dt>Profit</dt>
                  <dd>{formatPence(quarter.totals.profit)}</dd>
                </div>
              </dl>
            )}
          </li>
        ))}
      </ol>
    </Section>
  );
}
