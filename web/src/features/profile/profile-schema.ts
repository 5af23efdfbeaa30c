import { z } from '@/lib/zod';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from '@/lib/text-rules';
import { BOUNDS } from '@/sync/contract.generated';

// The server's bounds (the contract, from crates/domain/src/profile.rs), checked here too so an
// edit made offline is never parked later for something the form could have said at once.
export const { maxDisplayNameChars: MAX_DISPLAY_NAME_CHARS, maxBioChars: MAX_BIO_CHARS } = BOUNDS.profile;

export const profileMessages = {
  nameRequired: 'Display name is required',
  nameTooLong: `Display name must be at most ${MAX_DISPLAY_NAME_CHARS} characters`,
  nameCharacters: forbiddenCharactersMessage('Display name'),
  bioTooLong: `Bio must be at most ${MAX_BIO_CHARS} characters`,
  bioCharacters: forbiddenCharactersMessage('Bio'),
  emailFixed: 'Email cannot be changed',
  updated: 'Profile updated successfully!',
  updateFailed: (reason: string) => `Failed to update profile: ${reason}`,
  loadFailed: 'Failed to load profile data',
} as const;

const chars = (text: string) => [...text].length;

export const profileFormSchema = z.object({
  displayName: z
    .string()
    .trim()
    .min(1, profileMessages.nameRequired)
    .refine((name) => chars(name) <= MAX_DISPLAY_NAME_CHARS, profileMessages.nameTooLong)
    .refine((name) => !hasForbiddenCharacters(name), profileMessages.nameCharacters),
  bio: z
    .string()
    .refine((bio) => chars(bio) <= MAX_BIO_CHARS, profileMessages.bioTooLong)
    .refine((bio) => !hasForbiddenCharacters(bio, true), profileMessages.bioCharacters),
});

export type ProfileFormInput = z.input<typeof profileFormSchema>;
export type ProfileFormValue = z.output<typeof profileFormSchema>;
