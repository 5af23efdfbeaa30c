import { describe, expect, it } from 'vitest';
import { profileFormSchema, profileMessages } from './profile-schema';

const issues = (value: { displayName: string; bio: string }) => profileFormSchema.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];

describe('the profile form', () => {
  it('holds the name and bio to the server rule on free text: line breaks in the bio only', () => {
    expect(issues({ displayName: 'Sam', bio: 'Two\nlines\tand a tab' })).toEqual([]);
    expect(issues({ displayName: 'Sam\u202e', bio: '' })).toEqual([profileMessages.nameCharacters]);
    expect(issues({ displayName: 'Sam\nDriver', bio: '' })).toEqual([profileMessages.nameCharacters]);
    expect(issues({ displayName: 'Sam', bio: 'bell\u0007' })).toEqual([profileMessages.bioCharacters]);
  });
});
