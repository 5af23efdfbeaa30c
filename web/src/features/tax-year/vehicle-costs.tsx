// The tax year's vehicle questions: costs of a vehicle that name no vehicle while a flat-rate one
// exists (claimed twice if they are its, with a one-step link), deductions that do not say what
// they are for, and the two methods side by side while a vehicle's method is still open (until an
// earlier year or a sent update fixed it: then which update did, and the method it keeps).
import { useState } from 'react';
import { Button, ButtonLink } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { countWords, formatPence, listText } from '@/lib/format';
import { routes, spendingView } from '@/lib/paths';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import type { TaxSummary } from '@/core/tax/tax-summary';
import { taxYearRates } from '@/core/tax/tax-year';
import type { VehicleMethodFigures } from '@/core/tax/vehicle-methods';
import type { VehicleFix } from '@/core/mtd/vehicle-fixed';
import { formatLongDate } from './long-date';
import { linkCostsToVehicle } from './commands';
import { Row, Section } from './tax-year-sections';
import styles from './tax-year-page.module.css';

const count = new Intl.NumberFormat('en-GB');
const percent = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

/** The warnings under the year's expenses; nothing when there is nothing to say. */
export function VehicleCostWarnings({ summary, hasVehicles }: { summary: TaxSummary; hasVehicles: boolean }) {
  const { unlinked, unsaid } = summary.totals.costs;
  return (
    <>
      {unlinked ? <UnlinkedWarning unlinked={unlinked} /> : null}
      {hasVehicles && unsaid.deductions > 0 ? (
        <div className={styles.warning} role="note">
          <p>
            {countWords(unsaid.deductions, 'courier deduction')} ({formatPence(unsaid.paid)} this year) {unsaid.deductions === 1 ? 'does' : 'do'} not say what{' '}
            {unsaid.deductions === 1 ? 'it is' : 'they are'} for, so {unsaid.deductions === 1 ? 'it counts' : 'they count'} as other business costs. If one is
            vehicle hire, say so and name its vehicle, so it is claimed once.
          </p>
          <ButtonLink variant="secondary" to={routes.settings}>
            Review deductions
          </ButtonLink>
        </div>
      ) : null}
    </>
  );
}

function UnlinkedWarning({ unlinked }: { unlinked: NonNullable<TaxSummary['totals']['costs']['unlinked']> }) {
  const handle = useSyncHandle();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const names = listText(unlinked.flatRateVehicles.map((v) => v.name));
  const one = unlinked.flatRateVehicles.length === 1;
  async function link(vehicleId: string) {
    setBusy(true);
    setFailure(null);
    try {
      await linkCostsToVehicle(handle, unlinked.records, vehicleId);
    } catch {
      setFailure('Failed to link the costs');
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className={styles.warning} role="note" aria-label="Vehicle costs with no vehicle">
      <p>
        <strong>{formatPence(unlinked.paid)} of vehicle costs name no vehicle</strong> and are counted in full:{' '}
        {listText(unlinked.byCategory.map((c) => `${c.label.toLowerCase()} ${formatPence(c.paid)}`))}. {names} {one ? 'is' : 'are'} on the flat mileage rate,
        which already covers {one ? 'its' : 'their'} fuel, repairs, insurance, tax and hire. If these are {one ? 'its' : 'theirs'}, link them so they are
        claimed once.
      </p>
      <div className={styles.exports}>
        {unlinked.flatRateVehicles.map((vehicle) => (
          <Button key={vehicle.vehicleId} variant="secondary" disabled={busy} onClick={() => void link(vehicle.vehicleId)}>
            Link them to {vehicle.name}
          </Button>
        ))}
        <ButtonLink variant="ghost" to={spendingView('expenses')}>
          Review expenses
        </ButtonLink>
      </div>
      <FormAlert message={failure} />
    </div>
  );
}

interface VehicleMethodsProps {
  summary: TaxSummary;
  keptMethods: ReadonlySet<string>;
  /** Vehicles whose method a sent update fixed. */
  fixes: ReadonlyMap<string, VehicleFix>;
}

/** Flat rate or actual costs: both figures for each vehicle whose method is still open this year, or the update that fixed it. */
export function VehicleMethodsSection({ summary, keptMethods, fixes }: VehicleMethodsProps) {
  if (summary.vehicleMethods.length === 0) return null;
  return (
    <Section id="tax-vehicle-methods" title="Flat rate or actual costs">
      <p className={styles.muted}>
        Until a quarterly update you send or an earlier tax year uses a vehicle, you can still choose how its costs are claimed; after that HMRC keeps the
        method for as long as you use it for work, so the choice stays with the vehicle. The year so far, {summary.year.replace('-', '–')}:
      </p>
      <ul className={styles.methods} aria-label="Both methods by vehicle">
        {summary.vehicleMethods.map((vehicle) => (
          <li key={vehicle.vehicleId}>
            {fixes.has(vehicle.vehicleId) ? (
              <FixedMethod vehicle={vehicle} fix={fixes.get(vehicle.vehicleId)!} />
            ) : (
              <VehicleMethods vehicle={vehicle} summary={summary} kept={keptMethods.has(vehicle.vehicleId)} />
            )}
          </li>
        ))}
      </ul>
    </Section>
  );
}

const METHOD_NAMES = { flatRate: 'flat rate', actualCosts: 'actual costs' } as const;

/** A vehicle whose method a sent update fixed: which update, and the method it keeps. */
function FixedMethod({ vehicle, fix }: { vehicle: VehicleMethodFigures; fix: VehicleFix }) {
  return (
    <section className={styles.method} aria-label={`${vehicle.name}: method fixed`}>
      <p className={styles.label}>{vehicle.name}</p>
      <p>
        Fixed by the Q{fix.quarter} {fix.year.replace('-', '–')} update sent on {formatLongDate(fix.sentOn)}: {METHOD_NAMES[vehicle.method]}.
      </p>
      <p className={styles.muted}>That update claimed its {vehicle.method === 'flatRate' ? 'business miles at the flat rate' : 'costs'}, so HMRC keeps the method while you use the vehicle for work.</p>
    </section>
  );
}

function VehicleMethods({ vehicle, summary, kept }: { vehicle: VehicleMethodFigures; summary: TaxSummary; kept: boolean }) {
  const rate = taxYearRates(summary.year).rates.mileage[vehicle.type];
  const share = vehicle.totalMiles > 0 ? `${percent.format((vehicle.businessMiles / vehicle.totalMiles) * 100)}% business use of ${formatPence(vehicle.costs)}` : 'no miles logged for the share';
  const difference = Math.abs((vehicle.flatRate ?? 0) - vehicle.actualCosts);
  const verdict =
    vehicle.flatRate === null
      ? 'Only actual costs: HMRC’s flat rate does not cover this vehicle.'
      : vehicle.better === 'same'
        ? 'Both claim the same so far.'
        : `${vehicle.better === 'flatRate' ? 'The flat rate' : 'Actual costs'} claim ${formatPence(difference)} more so far.`;
  return (
    <section className={styles.method} aria-label={`${vehicle.name}: both methods`}>
      <p className={styles.label}>
        {vehicle.name} <span className={styles.rowHint}>· now {vehicle.method === 'flatRate' ? 'flat rate' : 'actual costs'}</span>
      </p>
      <ul className={styles.rows}>
        {vehicle.flatRate !== null && rate ? (
          <Row
            label="Flat rate"
            hint={`${countWords(vehicle.businessMiles, 'business mile')} at ${rate.firstMilesPence}p${rate.firstMilesPence === rate.afterPence ? '' : `, ${rate.afterPence}p after ${count.format(rate.thresholdMiles)}`}`}
            amount={vehicle.flatRate}
          />
        ) : null}
        <Row label="Actual costs" hint={`${share} of fuel, repairs, insurance, tax and hire`} amount={vehicle.actualCosts} />
      </ul>
      <p className={styles.muted}>
        {verdict}{' '}
        {kept
          ? 'Its method is kept now: it has miles in an earlier tax year.'
          : 'Change the method under Vehicles, in Spending → Mileage. Buying the vehicle (capital allowances) is not included in actual costs here.'}
      </p>
    </section>
  );
}
