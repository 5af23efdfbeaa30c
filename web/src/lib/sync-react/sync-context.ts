import { createContext } from 'react';
import type { SyncHandle } from '@/sync/coordinator';

/** The signed-in user's sync handle; null while nobody is signed in. */
export const SyncContext = createContext<SyncHandle | null>(null);
