import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/button';
import { Card } from '@/components/card';
import { FormAlert } from '@/components/form-alert';
import { TextField } from '@/components/text-field';
import { isApiError } from '@/lib/api';
import { validateCredentials, type CredentialsErrors } from '@/lib/credentials-schema';
import { useSessionStore } from '@/lib/session/use-session';
import { linkPassword } from './account-api';
import styles from './profile-page.module.css';

/**
 * A guest keeps their account by adding a way to sign in. Same account, same entries: nothing
 * is copied or merged, and an e-mail another account uses is refused.
 */
export function GuestUpgrade({ children }: { children?: ReactNode }) {
  const store = useSessionStore();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<CredentialsErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const headingId = useId();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = validateCredentials({ email, password, displayName: '' });
    setFailure(null);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const { user } = await linkPassword({ email: result.value.email, password: result.value.password });
      store.signedIn(user);
    } catch (error) {
      const field = isApiError(error) ? error.fields?.password?.[0] : undefined;
      if (field) setErrors({ password: field });
      else if (isApiError(error) && error.code === 'network') setFailure('Saving your account needs a connection.');
      else setFailure((isApiError(error) && error.message) || 'Failed to save your account');
      setSaving(false);
    }
  }

  return (
    <Card className={styles.account} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        Keep your account
      </h2>
      <p className={styles.muted}>
        You are using a guest account. Add a way to sign in to keep your entries and use them on your other devices.
      </p>
      <form className={styles.accountForm} onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Add email and password">
        <TextField label="Email" type="email" autoComplete="email" value={email} error={errors.email} onChange={(e) => setEmail(e.target.value)} />
        <TextField label="Password" type="password" autoComplete="new-password" value={password} error={errors.password} onChange={(e) => setPassword(e.target.value)} />
        <FormAlert message={failure} />
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save account'}
        </Button>
      </form>
      {children}
    </Card>
  );
}
