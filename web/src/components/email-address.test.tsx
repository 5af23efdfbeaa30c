import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailAddress } from './email-address';

describe('EmailAddress', () => {
  it('offers line breaks only after the @ and before each dot, and keeps the whole address', () => {
    const { container } = render(<EmailAddress address="sam.driver@example.co.uk" />);
    const shown = screen.getByTitle('sam.driver@example.co.uk');
    expect(shown).toHaveTextContent(/^sam\.driver@example\.co\.uk$/);
    // The text between two break opportunities.
    const pieces = container.querySelector('span')!.innerHTML.split('<wbr>');
    expect(pieces).toEqual(['sam', '.driver@', 'example', '.co', '.uk']);
  });
});
