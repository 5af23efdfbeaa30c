import { describe, expect, it } from 'vitest';
import { createTestSyncHandle } from '@/testing/sync-handle';
import { saveTaxRegion, saveTheme } from './doc-commands';
import { settingsTaxRegion, settingsTheme } from './use-profile';

describe('saveTaxRegion', () => {
  it('queues only the region, so a theme chosen elsewhere is kept, and shows it at once', async () => {
    const handle = createTestSyncHandle();
    await saveTheme(handle, 'light');
    await saveTaxRegion(handle, 'scotland');
    const items = await handle.db.outbox.toArray();
    expect(items.map((item) => [item.name, item.args])).toEqual([
      ['settings.put', { theme: 'light' }],
      ['settings.put', { taxRegion: 'scotland' }],
    ]);
    const doc = await handle.db.getDoc('settings');
    expect([settingsTheme(doc), settingsTaxRegion(doc)]).toEqual(['light', 'scotland']);
    expect(handle.requestSync).toHaveBeenCalledTimes(2);
  });
});
