import { SelectField, TextField } from '@/components/text-field';
import { PRESETS, presetOf, presetRange, rangeProblem, type DayRange, type PresetId } from './history-range';
import styles from './history-page.module.css';

interface RangeFilterProps {
  range: DayRange;
  today: string;
  onChange: (range: DayRange) => void;
}

/** Search by date range: a quick period, or any From/To days. */
export function RangeFilter({ range, today, onChange }: RangeFilterProps) {
  const preset = presetOf(range, today);
  return (
    <fieldset className={styles.filter}>
      <legend className="visually-hidden">Date range</legend>
      <SelectField
        label="Period"
        value={preset ?? 'custom'}
        onChange={(event) => {
          if (event.target.value !== 'custom') onChange(presetRange(event.target.value as PresetId, today));
        }}
      >
        {PRESETS.map(({ id, label }) => (
          <option key={id} value={id}>
            {label}
          </option>
        ))}
        <option value="custom" disabled={preset !== null}>
          Custom dates
        </option>
      </SelectField>
      <TextField label="From" type="date" value={range.from} max={range.to || undefined} onChange={(event) => onChange({ ...range, from: event.target.value })} />
      <TextField
        label="To"
        type="date"
        value={range.to}
        min={range.from || undefined}
        error={rangeProblem(range) ?? undefined}
        onChange={(event) => onChange({ ...range, to: event.target.value })}
      />
    </fieldset>
  );
}
