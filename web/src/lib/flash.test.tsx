import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SUCCESS_MESSAGE_MS, useFlash } from './flash';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('useFlash', () => {
  it('shows a message for 3 s (spec §9), restarting the clock for a new one', () => {
    expect(SUCCESS_MESSAGE_MS).toBe(3_000);
    const { result } = renderHook(() => useFlash());
    act(() => result.current[1]('Saved'));
    expect(result.current[0]).toBe('Saved');
    act(() => vi.advanceTimersByTime(2_000));
    act(() => result.current[1]('Saved'));
    act(() => vi.advanceTimersByTime(2_999));
    expect(result.current[0]).toBe('Saved');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current[0]).toBeNull();
  });

  it('can be cleared early', () => {
    const { result } = renderHook(() => useFlash());
    act(() => result.current[1]('Saved'));
    act(() => result.current[2]());
    expect(result.current[0]).toBeNull();
  });
});
