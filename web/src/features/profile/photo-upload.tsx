import { Camera, CircleCheck } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { Avatar } from '@/components/avatar';
import { FormAlert } from '@/components/form-alert';
import { useFlash } from '@/lib/flash';
import { useSessionStore } from '@/lib/session/use-session';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { useOnline } from '@/lib/use-online';
import { checkPhoto, uploadFailure, uploadPhoto } from './upload-photo';
import styles from './profile-page.module.css';

/** Spec §4 "Picture upload": uploading, then done or error. */
type Upload = { phase: 'idle' } | { phase: 'uploading'; fraction: number } | { phase: 'error'; message: string };

export const PICTURE_UPDATED = 'Profile picture updated';

/**
 * The picture with its Change Picture button, beside `children` (the name and plan), and the
 * upload's progress and messages underneath. Online only: a file is not queued for later.
 */
export function PhotoUpload({ photoURL, children }: { photoURL: string | null; children: ReactNode }) {
  const online = useOnline();
  const store = useSessionStore();
  const handle = useSyncHandle();
  const input = useRef<HTMLInputElement>(null);
  const [upload, setUpload] = useState<Upload>({ phase: 'idle' });
  const [done, showDone, clearDone] = useFlash();
  const offlineId = useId();
  const uploading = upload.phase === 'uploading';

  async function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Cleared at once, so choosing the same file again still fires a change.
    event.target.value = '';
    if (!file) return;
    clearDone();
    const problem = checkPhoto(file);
    if (problem) {
      setUpload({ phase: 'error', message: problem });
      return;
    }
    setUpload({ phase: 'uploading', fraction: 0 });
    try {
      const user = await uploadPhoto(file, (fraction) => setUpload({ phase: 'uploading', fraction }));
      // The header avatar reads the session user: it shows the new picture now. The profile
      // document catches up with the next pull, which the server has already poked for.
      store.signedIn(user);
      handle.requestSync();
      setUpload({ phase: 'idle' });
      showDone(PICTURE_UPDATED);
    } catch (error) {
      setUpload({ phase: 'error', message: uploadFailure(error) });
    }
  }

  return (
    <>
      <div className={styles.identity}>
        <div className={styles.picture}>
          <Avatar photoURL={photoURL} size="lg" />
          <input
            ref={input}
            type="file"
            accept="image/*"
            className="visually-hidden"
            tabIndex={-1}
            aria-label="Profile picture file"
            disabled={!online || uploading}
            onChange={(event) => void onChange(event)}
          />
          <button
            type="button"
            className={styles.camera}
            aria-label="Change Picture"
            title="Change Picture"
            onClick={() => input.current?.click()}
            disabled={!online || uploading}
            aria-describedby={online ? undefined : offlineId}
          >
            <Camera aria-hidden="true" />
          </button>
        </div>
        {children}
      </div>
      <div className={styles.upload}>
        {online ? null : (
          <p id={offlineId} className={styles.hint}>
            You are offline. Uploading a picture needs a connection.
          </p>
        )}
        {uploading ? (
          <div className={styles.progress}>
            <progress max={1} value={upload.fraction} aria-label="Uploading picture" />
            <span>Uploading... {Math.round(upload.fraction * 100)}%</span>
          </div>
        ) : null}
        {upload.phase === 'error' ? <FormAlert message={upload.message} /> : null}
        <p role="status" className={styles.success}>
          {done ? (
            <>
              <CircleCheck aria-hidden="true" />
              {done}
            </>
          ) : null}
        </p>
      </div>
    </>
  );
}
