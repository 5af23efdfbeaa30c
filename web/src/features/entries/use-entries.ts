// The entries as the screens read them: one shared live query (lib/sync-react/use-live-entries.ts).
export { byNewest, readEntries, useEntries } from '@/lib/sync-react/use-live-entries';
