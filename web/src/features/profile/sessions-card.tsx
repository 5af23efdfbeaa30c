import { MonitorSmartphone } from 'lucide-react';
import { useCallback, useEffect, useId, useState } from 'react';
import { Button } from '@/components/button';
import { Card } from '@/components/card';
import { FormAlert } from '@/components/form-alert';
import { Spinner } from '@/components/spinner';
import { isApiError } from '@/lib/api';
import { formatShortDate, formatTime } from '@/lib/format';
import { endOtherSessions, endSession, listSessions, type DeviceSession } from './account-api';
import styles from './profile-page.module.css';

type Load = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; sessions: DeviceSession[] };

/** "Active now" for the last couple of minutes, otherwise when. */
function lastSeen(iso: string, now = Date.now()): string {
  const ms = Date.parse(iso);
  if (now - ms < 2 * 60_000) return 'Active now';
  return `Last active ${formatShortDate(new Date(ms))}, ${formatTime(ms)}`;
}

function problem(error: unknown): string {
  if (isApiError(error) && error.code === 'network') return 'Your devices can be seen when you are online.';
  return (isApiError(error) && error.message) || 'Could not load your devices';
}

/** Where this account is signed in; any other device can be signed out from here. */
export function SessionsCard() {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const headingId = useId();

  const refresh = useCallback(async () => {
    try {
      setLoad({ status: 'ready', sessions: await listSessions() });
    } catch (error) {
      setLoad({ status: 'failed', message: problem(error) });
    }
  }, []);

  useEffect(() => {
    // Loading the list is this card's job on mount; the effect only starts it.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void refresh();
  }, [refresh]);

  async function act(key: string, action: () => Promise<string>) {
    setBusy(key);
    setFailure(null);
    try {
      setNotice(await action());
      await refresh();
    } catch (error) {
      setFailure((isApiError(error) && error.message) || 'Could not sign that device out');
    } finally {
      setBusy(null);
    }
  }

  const others = load.status === 'ready' ? load.sessions.filter((s) => !s.current) : [];
  return (
    <Card className={styles.account} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        Your devices
      </h2>
      {load.status === 'loading' ? <Spinner label="Loading your devices" /> : null}
      {load.status === 'failed' ? <p className={styles.muted}>{load.message}</p> : null}
      {load.status === 'ready' ? (
        <ul className={styles.sessions}>
          {load.sessions.map((session) => (
            <li key={session.id} className={styles.session}>
              <MonitorSmartphone aria-hidden="true" className={styles.sessionIcon} />
              <div className={styles.sessionText}>
                <span className={styles.sessionDevice}>
                  {session.device}
                  {session.current ? <span className={styles.thisDevice}>This device</span> : null}
                </span>
                <span className={styles.muted}>{lastSeen(session.lastSeenAt)}</span>
              </div>
              {session.current ? null : (
                <Button
                  variant="ghost"
                  aria-label={`Sign out ${session.device}`}
                  disabled={busy !== null}
                  onClick={() =>
                    void act(session.id, async () => {
                      await endSession(session.id);
                      return `${session.device} signed out`;
                    })
                  }
                >
                  Sign out
                </Button>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <FormAlert message={failure} />
      <p role="status" className={styles.muted}>
        {notice ?? ''}
      </p>
      {others.length > 1 ? (
        <Button
          variant="secondary"
          disabled={busy !== null}
          onClick={() =>
            void act('all', async () => {
              const ended = await endOtherSessions();
              return `Signed out of ${ended} other ${ended === 1 ? 'device' : 'devices'}`;
            })
          }
        >
          Sign out all other devices
        </Button>
      ) : null}
    </Card>
  );
}
