import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useRef } from 'react';
import { DEFAULT_TIERS, type PayTier } from '@/core/pay/pay';
import type { User } from '@/lib/session/user';
import { useSession, useSessionStore } from '@/lib/session/use-session';
import { applyTheme, DEFAULT_THEME } from '@/lib/theme';
import type { LocalDb } from '@/sync/db';
import type { LocalDoc, MtdQuarters, RecordSyncState, TaxRegion, Theme } from '@/sync/types';
import { useSyncHandle } from './use-sync';

export type ProfileDoc = Extract<LocalDoc, { kind: 'profile' }>;
export type SettingsDoc = Extract<LocalDoc, { kind: 'settings' }>;

/** What the screens show of the profile: the server's copy with this device's unsent edits on top. */
export interface ProfileView {
  displayName: string;
  email: string | null;
  bio: string;
  photoURL: string | null;
  role: string;
  isAnonymous: boolean;
  tiers: readonly PayTier[];
  /** Whether this device's edits have reached the server. */
  syncState: RecordSyncState;
}

/** A read of one local document; `failed` when IndexedDB itself could not be read. */
export type DocRead<D> = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; doc: D | undefined };

function usesTiers(tiers: readonly PayTier[] | undefined): tiers is readonly PayTier[] {
  return Array.isArray(tiers) && tiers.length >= 2;
}

/**
 * The profile as the screens show it. The document's `data` is null until the server has
 * sent the profile once (a new account has none), so the signed-in user from the session is
 * the base then, with the unsent edits (`patch`) on top. The picture always comes from the
 * session user: an upload updates it at once, and it follows the document as that syncs
 * (useSessionFollowsProfile).
 */
export function profileView(doc: ProfileDoc | undefined, user: User): ProfileView {
  const patch = doc?.patch ?? {};
  const data = doc?.data;
  const tiers = data?.paymentConfig?.tiers ?? patch.paymentConfig?.tiers;
  return {
    displayName: data?.displayName ?? patch.displayName ?? user.displayName,
    email: data ? data.email : user.email,
    bio: data?.bio ?? patch.bio ?? user.bio ?? '',
    photoURL: user.photoURL,
    role: data?.role ?? user.role,
    isAnonymous: data?.isAnonymous ?? user.isAnonymous,
    tiers: usesTiers(tiers) ? tiers : DEFAULT_TIERS,
    syncState: doc?.syncState ?? 'synced',
  };
}

export function settingsTheme(doc: SettingsDoc | undefined): Theme {
  return doc?.data?.theme ?? doc?.patch.theme ?? DEFAULT_THEME;
}

/** The Income Tax bands: the UK's unless chosen, also for a document stored before the setting existed. */
export function settingsTaxRegion(doc: SettingsDoc | undefined): TaxRegion {
  return doc?.data?.taxRegion ?? doc?.patch.taxRegion ?? 'uk';
}

/** The MTD quarters: the standard ones unless the calendar ones were elected. */
export function settingsQuarters(doc: SettingsDoc | undefined): MtdQuarters {
  return doc?.data?.quarters ?? doc?.patch.quarters ?? 'standard';
}

/** Days before a sent, unanswered statement query's reminder: 14 unless chosen. */
export function settingsQueryReminderDays(doc: SettingsDoc | undefined): number {
  return doc?.data?.queryReminderDays ?? doc?.patch.queryReminderDays ?? 14;
}

async function readDoc<K extends LocalDoc['kind']>(db: LocalDb, kind: K): Promise<DocRead<Extract<LocalDoc, { kind: K }>>> {
  try {
    return { status: 'ready', doc: await db.getDoc(kind) };
  } catch {
    return { status: 'failed' };
  }
}

export function useProfileDoc(): DocRead<ProfileDoc> {
  const { db } = useSyncHandle();
  return useLiveQuery(() => readDoc(db, 'profile'), [db]) ?? { status: 'loading' };
}

export function useSettingsDoc(): DocRead<SettingsDoc> {
  const { db } = useSyncHandle();
  return useLiveQuery(() => readDoc(db, 'settings'), [db]) ?? { status: 'loading' };
}

/**
 * The signed-in user's profile, live; undefined while it is first read. If the device's
 * store cannot be read, the session user stands in (the app keeps working online).
 */
export function useProfile(): ProfileView | undefined {
  const read = useProfileDoc();
  const session = useSession();
  if (session.status !== 'signed-in' || read.status === 'loading') return undefined;
  return profileView(read.status === 'ready' ? read.doc : undefined, session.user);
}

/** The settings; undefined while first read. */
export function useSettings(): { theme: Theme; taxRegion: TaxRegion; quarters: MtdQuarters; queryReminderDays: number; syncState: RecordSyncState } | undefined {
  const read = useSettingsDoc();
  if (read.status === 'loading') return undefined;
  const doc = read.status === 'ready' ? read.doc : undefined;
  return { theme: settingsTheme(doc), taxRegion: settingsTaxRegion(doc), quarters: settingsQuarters(doc), queryReminderDays: settingsQueryReminderDays(doc), syncState: doc?.syncState ?? 'synced' };
}

/** The server-owned parts of the profile that the session user also carries. */
function sessionFields(doc: ProfileDoc): Partial<User> | null {
  const server = doc.server;
  if (!server) return null;
  return { displayName: server.displayName, email: server.email, bio: server.bio, photoURL: server.photoURL, role: server.role, isAnonymous: server.isAnonymous };
}

/**
 * Keeps the session user (header avatar, the user remembered for offline starts) in step
 * with the profile document. Only a *new* server version counts: the copy read at start may
 * be older than the session the server just sent, and the pull at start brings any newer one.
 */
export function useSessionFollowsProfile(): void {
  const read = useProfileDoc();
  const session = useSession();
  const store = useSessionStore();
  const seen = useRef<{ version: number | undefined } | null>(null);
  const doc = read.status === 'ready' ? read.doc : undefined;
  const version = doc?.version;

  useEffect(() => {
    if (read.status !== 'ready' || session.status !== 'signed-in') return;
    if (seen.current === null || seen.current.version === version) {
      seen.current = { version };
      return;
    }
    seen.current = { version };
    const fields = doc ? sessionFields(doc) : null;
    if (!fields) return;
    const user = session.user;
    const changed = (Object.keys(fields) as (keyof User)[]).some((key) => (fields[key] ?? null) !== (user[key] ?? null));
    if (changed) store.signedIn({ ...user, ...fields });
  }, [read.status, version, doc, session, store]);
}

/**
 * Applies the settings' theme to the page (and remembers it for the next start). The document
 * keeps an acknowledged choice until a pull brings it back, so following it never flashes an
 * older theme.
 */
export function useThemeSetting(): void {
  const read = useSettingsDoc();
  useEffect(() => {
    if (read.status === 'loading') return;
    applyTheme(settingsTheme(read.status === 'ready' ? read.doc : undefined));
  }, [read]);
}
