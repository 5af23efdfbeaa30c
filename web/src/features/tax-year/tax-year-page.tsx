import { useDeferredValue, useEffect, useId, useMemo, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { FormAlert } from '@/components/form-alert';
import { Page } from '@/components/page';
import { Spinner } from '@/components/spinner';
import { SelectField } from '@/components/text-field';
import { formatPence } from '@/lib/format';
import { saveQuarters, saveTaxRegion } from '@/lib/sync-react/doc-commands';
import { useSettings } from '@/lib/sync-react/use-profile';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { currentTaxYear, type IncomeTaxRegion, type TaxYearLabel } from '@/core/tax/tax-year';
import { taxSummary, yearsWithRecords, type TaxSummary } from '@/core/tax/tax-summary';
import { QUARTER_ELECTIONS, type MtdQuarters } from '@/core/mtd/quarters';
import { useNow } from '@/lib/use-now';
import { localDay } from '@/lib/week';
import { formatLongDate } from './long-date';
import { MtdUpdatesSection } from './mtd-updates';
import { TaxExports } from './tax-exports';
import { keptMethod } from '@/features/mileage/vehicle-form-schema';
import { DatesSection, EstimateSection, ExpensesSection, IncomeSection, MileageSection, QuartersSection } from './tax-year-sections';
import { useTaxRecords } from './use-tax-records';
import { VehicleCostWarnings, VehicleMethodsSection } from './vehicle-costs';
import { openVehicles, vehicleFixes } from '@/core/mtd/vehicle-fixed';
import { yearStatementChecks } from '@/core/statements/year-checks';
import { useSentUpdates } from '@/features/sent-updates/use-sent-updates';
import { useStatementChecks } from '@/features/statement-checks/use-statement-checks';
import type { DeviceTaxRecords } from '@/lib/sync-react/tax-records';
import type { LocalSentUpdate, LocalStatementCheck } from '@/sync/types';
import styles from './tax-year-page.module.css';
import panel from '@/components/panel.module.css';

const REGION_NAMES: Record<IncomeTaxRegion, string> = { uk: 'England, Wales and Northern Ireland', scotland: 'Scotland' };

/**
 * The UK tax year (6 April–5 April) from the driver's own records: what came in, what it cost,
 * the profit, an estimate of the tax, when to pay, and the MTD quarters. Opens on the current
 * year; earlier years with records can be picked.
 */
export function TaxYearPage() {
  const today = localDay(useNow());
  const records = useTaxRecords();
  // Read beside the records, so the sections below the figures find them read (rendered with
  // none first, they were worked out twice, and the checklist showed every check missing).
  const sentUpdates = useSentUpdates();
  const checks = useStatementChecks();
  const settings = useSettings();
  const [picked, setPicked] = useState<TaxYearLabel | null>(null);
  const current = currentTaxYear(today);
  // A reminder opens a year's updates: /app/tax?year=2025-26#tax-updates.
  const [params] = useSearchParams();
  const asked = params.get('year');
  const year = picked ?? (asked !== null && /^\d{4}-\d{2}$/.test(asked) && asked <= current ? (asked as TaxYearLabel) : current);
  const region = settings?.taxRegion ?? 'uk';
  const election = settings?.quarters ?? 'standard';
  const summary = useMemo(() => (records ? taxSummary(records, year, today, region, election) : null), [records, year, today, region, election]);
  const years = useMemo(() => (records ? yearsWithRecords(records, today) : [current]), [records, today, current]);

  return (
    <Page title="Tax year" intro={<p>Your Self Assessment year from your own records, worked out on this device.</p>}>
      <div className={`${styles.controls} ${styles.noPrint}`}>
        <YearPicker years={years} year={year} onPick={setPicked} />
        <RegionSwitch region={region} disabled={!settings} />
        <QuartersSwitch election={election} disabled={!settings} />
      </div>
      {records === null ? (
        <FormAlert message="Failed to load your records" />
      ) : !summary || !records ? (
        <Spinner label="Loading the tax year" />
      ) : (
        <TaxYear summary={summary} records={records} today={today} sentUpdates={sentUpdates} checks={checks} />
      )}
    </Page>
  );
}

interface TaxYearProps {
  summary: TaxSummary;
  records: DeviceTaxRecords;
  today: string;
  /** Undefined until read. */
  sentUpdates: readonly LocalSentUpdate[] | undefined;
  checks: readonly LocalStatementCheck[] | undefined;
}

/**
 * The year's figures at once, and the sections below them in a second pass (issue 30): the
 * quarters' updates, the year-end checklist (every pay period's statement check) and the rest
 * hold most of the page's work and nodes, and on a slow phone with years of records rendering
 * them in the same pass kept the figures off the screen. `useDeferredValue` renders them in the
 * background right after the figures are shown, and from then on with every change, in the same
 * pass as the figures (so the two never show different years).
 */
function TaxYear({ summary, records, today, sentUpdates, checks }: TaxYearProps) {
  const below = useDeferredValue(true, false);
  return (
    <>
      <div className={styles.notice} role="note">
        <p className={styles.printOnly}>
          Tax year {summary.year} ({formatLongDate(summary.from)} to {formatLongDate(summary.to)}), Income Tax bands: {REGION_NAMES[summary.region]}.
        </p>
        <p>
          <strong>This is an estimate to help you plan, not tax advice.</strong> It treats this work as your only income
          {summary.through < summary.to ? `, counts up to today (${formatLongDate(summary.through)})` : ''} and uses HMRC&rsquo;s
          published rates.
        </p>
        {summary.rates.assumed ? (
          <p>
            The rates for {summary.year} are not in this version yet: the figures use {summary.rates.from}&rsquo;s.
          </p>
        ) : null}
      </div>
      <Overview summary={summary} />
      {below && sentUpdates && checks ? <TaxYearSections summary={summary} records={records} today={today} sentUpdates={sentUpdates} checks={checks} /> : null}
    </>
  );
}

function TaxYearSections({ summary, records, today, sentUpdates, checks }: TaxYearProps & { sentUpdates: readonly LocalSentUpdate[]; checks: readonly LocalStatementCheck[] }) {
  const { hash } = useLocation();
  // The section a link named (/app/tax?year=2025-26#tax-updates) is on the page once these are: scroll to it then, once.
  useEffect(() => {
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);
  const liveVehicles = records.vehicles.filter((vehicle) => vehicle.deleted !== 1);
  const keptMethods = new Set(liveVehicles.filter((vehicle) => keptMethod(vehicle, records.mileage, today) !== null).map((vehicle) => vehicle.id));
  // A vehicle whose miles or running costs a sent update covers keeps its method (core/mtd/vehicle-fixed.ts).
  const fixes = useMemo(() => vehicleFixes(records.vehicles.map((vehicle) => vehicle.id), records, sentUpdates), [records, sentUpdates]);
  // Settled: kept by an earlier year's miles, or fixed by a sent update.
  const openVehicleNames = openVehicles(summary.vehicleMethods, fixes)
    .filter((vehicle) => !keptMethods.has(vehicle.vehicleId))
    .map((vehicle) => vehicle.name);
  const statementChecks = useMemo(
    () =>
      yearStatementChecks({
        from: summary.from,
        to: summary.to,
        today,
        couriers: records.couriers.filter((courier) => courier.deleted !== 1),
        entries: records.entries,
        checks,
        deductions: records.deductions,
      }),
    [summary.from, summary.to, today, records, checks],
  );
  return (
    <>
      <IncomeSection summary={summary} />
      <ExpensesSection summary={summary} warnings={<VehicleCostWarnings summary={summary} hasVehicles={liveVehicles.length > 0} />} />
      <MileageSection summary={summary} />
      <VehicleMethodsSection summary={summary} keptMethods={keptMethods} fixes={fixes} />
      <EstimateSection summary={summary} />
      <DatesSection summary={summary} />
      <QuartersSection summary={summary} />
      <MtdUpdatesSection summary={summary} records={records} today={today} sentUpdates={sentUpdates} openVehicleNames={openVehicleNames} statementChecks={statementChecks} />
      <TaxExports summary={summary} records={records} />
    </>
  );
}

function YearPicker({ years, year, onPick }: { years: readonly TaxYearLabel[]; year: TaxYearLabel; onPick: (year: TaxYearLabel) => void }) {
  return (
    <div className={styles.yearPicker}>
      <SelectField label="Tax year" value={year} onChange={(event) => onPick(event.target.value as TaxYearLabel)}>
        {years.map((label) => (
          <option key={label} value={label}>
            {label.replace('-', '–')}
          </option>
        ))}
      </SelectField>
    </div>
  );
}

function RegionSwitch({ region, disabled }: { region: IncomeTaxRegion; disabled: boolean }) {
  const handle = useSyncHandle();
  const labelId = useId();
  const [error, setError] = useState<string | null>(null);
  async function choose(next: IncomeTaxRegion) {
    if (next === region) return;
    setError(null);
    try {
      await saveTaxRegion(handle, next);
    } catch {
      setError('Failed to save the region');
    }
  }
  return (
    <div className={styles.setting}>
      <span id={labelId} className={styles.label}>
        Income Tax bands
      </span>
      <div role="group" aria-labelledby={labelId} className={styles.segmented}>
        {(['uk', 'scotland'] as const).map((option) => (
          <button key={option} type="button" aria-pressed={region === option} disabled={disabled} onClick={() => void choose(option)}>
            {option === 'uk' ? 'Rest of the UK' : 'Scotland'}
          </button>
        ))}
      </div>
      <FormAlert message={error} />
    </div>
  );
}

/** Standard or calendar quarters: a synced setting the quarters, reminders and exports follow. */
function QuartersSwitch({ election, disabled }: { election: MtdQuarters; disabled: boolean }) {
  const handle = useSyncHandle();
  const labelId = useId();
  const hintId = useId();
  const [error, setError] = useState<string | null>(null);
  async function choose(next: MtdQuarters) {
    if (next === election) return;
    setError(null);
    try {
      await saveQuarters(handle, next);
    } catch {
      setError('Failed to save the quarters');
    }
  }
  return (
    <div className={styles.setting}>
      <span id={labelId} className={styles.label}>
        MTD quarters
      </span>
      <div role="group" aria-labelledby={labelId} aria-describedby={hintId} className={styles.segmented}>
        {(['standard', 'calendar'] as const).map((option) => (
          <button key={option} type="button" aria-pressed={election === option} disabled={disabled} onClick={() => void choose(option)}>
            {QUARTER_ELECTIONS[option].label}
          </button>
        ))}
      </div>
      <span id={hintId} className={styles.rowHint}>
        {QUARTER_ELECTIONS[election].ends}
      </span>
      <FormAlert message={error} />
    </div>
  );
}

/**
 * The year at a glance. Its figures add up on the screen: turnover, less what is claimed (the
 * expenses and the mileage claim, or the trading allowance when it wins), is the profit.
 */
function Overview({ summary }: { summary: TaxSummary }) {
  const { profit, totals } = summary;
  const allowance = profit.better === 'allowance';
  const figures: [string, string][] = [
    ['Turnover', formatPence(totals.turnover)],
    ...(allowance
      ? ([['Trading allowance', formatPence(-profit.allowance)]] as [string, string][])
      : ([
          ['Expenses', formatPence(-totals.costs.allowed)],
          ['Mileage claim', formatPence(-totals.mileage.claimPence)],
        ] as [string, string][])),
    ['Profit', formatPence(allowance ? profit.withAllowance : profit.withExpenses)],
  ];
  return (
    <section className={`${panel.panel} ${styles.section}`} aria-labelledby="tax-overview">
      <div className={styles.headline}>
        <h2 id="tax-overview" className={panel.panelTitle}>
          Set aside for {summary.year.replace('-', '–')}
        </h2>
        <p className={styles.headlineValue} aria-label={`Set aside ${formatPence(summary.setAside)}`}>
          {formatPence(summary.setAside)}
        </p>
        <p className={styles.muted}>
          Income Tax {formatPence(summary.incomeTax.tax)} + Class 4 National Insurance {formatPence(summary.class4.contribution)}
          {summary.class2.payable ? ` + Class 2 ${formatPence(summary.class2.contribution)}` : ''}, on a profit of {formatPence(profit.taxable)}.
        </p>
      </div>
      <dl className={styles.figures} aria-label="The year in figures">
        {figures.map(([label, value]) => (
          <div key={label} className={styles.figure} data-total={label === 'Profit' ? true : undefined}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {allowance ? (
        <p className={styles.muted}>
          The trading allowance of {formatPence(profit.allowance)} is claimed instead of your {formatPence(totals.costs.allowed)} of expenses and{' '}
          {formatPence(totals.mileage.claimPence)} mileage claim: it leaves the lower profit.
        </p>
      ) : null}
      <dl className={styles.figures} aria-label="The tax on it">
        {(
          [
            ['Income Tax', summary.incomeTax.tax],
            ['Class 4 NI', summary.class4.contribution],
            ...(summary.class2.payable ? ([['Class 2 NI', summary.class2.contribution]] as [string, number][]) : []),
          ] as [string, number][]
        ).map(([label, value]) => (
          <div key={label} className={styles.figure}>
            <dt>{label}</dt>
            <dd>{formatPence(value)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
