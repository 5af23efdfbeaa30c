import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChosenCategory } from './expense-category-options';

describe('ChosenCategory', () => {
  it('spells out a long category under the picker, which a phone cuts short', () => {
    render(<ChosenCategory category="parkingTolls" />);
    expect(screen.getByText('Parking, tolls and congestion charges')).toBeInTheDocument();
  });

  it('adds nothing for a short name or no choice', () => {
    const { container, rerender } = render(<ChosenCategory category="fuel" />);
    expect(container).toBeEmptyDOMElement();
    rerender(<ChosenCategory category="" />);
    expect(container).toBeEmptyDOMElement();
  });
});
