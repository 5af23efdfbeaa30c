import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/button';
import { Card } from '@/components/card';
import { FormAlert } from '@/components/form-alert';
import { TextField } from '@/components/text-field';
import { isApiError } from '@/lib/api';
import { passwordProblem } from '@/lib/credentials-schema';
import { changePassword } from './account-api';
import styles from './profile-page.module.css';

interface ChangePasswordProps {
  title?: string;
  /** Called after the server took the new password (e.g. to re-read the session). */
  onChanged?: () => void;
}

/** Change Password: the current one first, and an offer to sign out everywhere else. */
export function ChangePassword({ title = 'Change Password', onChanged }: ChangePasswordProps) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [endOthers, setEndOthers] = useState(true);
  const [errors, setErrors] = useState<{ current?: string; next?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const headingId = useId();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = {
      current: current ? undefined : 'Current password is required',
      next: next ? passwordProblem(next) : 'New password is required',
    };
    setErrors(found);
    setDone(null);
    setFailure(null);
    if (found.current || found.next) return;
    setSaving(true);
    try {
      const ended = await changePassword({ currentPassword: current, newPassword: next, endOtherSessions: endOthers });
      setCurrent('');
      setNext('');
      setDone(ended > 0 ? `Password changed. Signed out of ${ended} other ${ended === 1 ? 'device' : 'devices'}.` : 'Password changed.');
      onChanged?.();
    } catch (error) {
      const field = isApiError(error) ? error.fields?.newPassword?.[0] : undefined;
      if (field) setErrors({ next: field });
      else if (isApiError(error) && error.code === 'wrong-password') setErrors({ current: 'Current password is incorrect' });
      else if (isApiError(error) && error.code === 'network') setFailure('Changing your password needs a connection.');
      else setFailure((isApiError(error) && error.message) || 'Failed to change password');
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card className={styles.account} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        {title}
      </h2>
      <form className={styles.accountForm} onSubmit={(event) => void onSubmit(event)} noValidate>
        <TextField label="Current password" type="password" autoComplete="current-password" value={current} error={errors.current} onChange={(e) => setCurrent(e.target.value)} />
        <TextField label="New password" type="password" autoComplete="new-password" value={next} error={errors.next} onChange={(e) => setNext(e.target.value)} />
        <label className={styles.check}>
          <input type="checkbox" checked={endOthers} onChange={(e) => setEndOthers(e.target.checked)} />
          Sign out of my other devices
        </label>
        <FormAlert message={failure} />
        <Button type="submit" disabled={saving}>
          {saving ? 'Changing...' : 'Change Password'}
        </Button>
        <p role="status" className={styles.muted}>
          {done ?? ''}
        </p>
      </form>
    </Card>
  );
}
