import { useId } from 'react';
import { Button } from '@/components/button';
import { Card } from '@/components/card';
import { FormAlert } from '@/components/form-alert';
import { Spinner } from '@/components/spinner';
import { TextAreaField, TextField } from '@/components/text-field';
import { saveProfile } from '@/lib/sync-react/doc-commands';
import type { ProfileView } from '@/lib/sync-react/use-profile';
import { useRefusedFields } from '@/lib/sync-react/use-refused-fields';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useForm } from '@/lib/use-form';
import { MAX_BIO_CHARS, MAX_DISPLAY_NAME_CHARS, profileFormSchema, profileMessages } from './profile-schema';
import styles from './profile-page.module.css';

/**
 * Edit mode. Saving stores the change on this device with its outbox item (it works
 * offline); the sync engine sends it. Cancel drops what was typed: the stored values stay.
 */
export function ProfileForm({ profile, onCancel, onSaved }: { profile: ProfileView; onCancel: () => void; onSaved: () => void }) {
  const handle = useSyncHandle();
  // The profile is one record per account: its outbox items carry the record id `profile`.
  const refused = useRefusedFields('profile');
  const { values: form, errors, failure, submitting: saving, setField: update, submit } = useForm({
    refused,
    schema: profileFormSchema,
    initial: () => ({ displayName: profile.displayName, bio: profile.bio }),
    command: (patch) => saveProfile(handle, patch),
    onSuccess: onSaved,
    failure: (error) => profileMessages.updateFailed(error instanceof Error && error.message ? error.message : 'Unknown error'),
  });
  const emailHintId = useId();

  return (
    <Card className={styles.profileCard} aria-label="Edit profile">
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label="Display name"
          required
          autoComplete="name"
          maxLength={MAX_DISPLAY_NAME_CHARS}
          value={form.displayName}
          error={errors.displayName}
          onChange={(event) => update('displayName', event.target.value)}
        />
        <div className={styles.readOnly}>
          <TextField
            label="Email"
            type="email"
            readOnly
            value={profile.email ?? ''}
            placeholder={profile.isAnonymous ? 'Guest account: no email address' : 'No email address'}
            aria-describedby={emailHintId}
          />
          <p id={emailHintId} className={styles.hint}>
            {profileMessages.emailFixed}
          </p>
        </div>
        <TextAreaField
          label="Bio"
          optional
          rows={4}
          maxLength={MAX_BIO_CHARS}
          value={form.bio}
          error={errors.bio}
          onChange={(event) => update('bio', event.target.value)}
        />
        <FormAlert message={failure} />
        <div className={styles.actions}>
          <Button type="submit" disabled={saving} aria-busy={saving}>
            {saving ? <Spinner size="sm" decorative /> : null}
            {saving ? 'Saving...' : 'Save'}
          </Button>
          <Button variant="secondary" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
        </div>
      </form>
    </Card>
  );
}
