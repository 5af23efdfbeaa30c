// Changes to the profile and settings documents, shared by the profile and settings screens.
// Each stores the change with its outbox item (sync/commands.ts) and nudges the engine.
import type { SyncHandle } from '@/sync/coordinator';
import { putSettings, updateProfile } from '@/sync/commands';
import type { MtdQuarters, ProfilePatch, TaxRegion, Theme } from '@/sync/types';

export async function saveProfile(handle: SyncHandle, patch: ProfilePatch): Promise<void> {
  await updateProfile(handle.db, patch);
}

export async function saveTheme(handle: SyncHandle, theme: Theme): Promise<void> {
  await putSettings(handle.db, { theme });
}

/** Only the region goes out, so a theme changed on another device meanwhile is kept. */
export async function saveTaxRegion(handle: SyncHandle, taxRegion: TaxRegion): Promise<void> {
  await putSettings(handle.db, { taxRegion });
}

/** Only the quarters election goes out, like the region. */
export async function saveQuarters(handle: SyncHandle, quarters: MtdQuarters): Promise<void> {
  await putSettings(handle.db, { quarters });
}

/** Only the days before an unanswered query's reminder go out, like the region. */
export async function saveQueryReminderDays(handle: SyncHandle, queryReminderDays: number): Promise<void> {
  await putSettings(handle.db, { queryReminderDays });
}
