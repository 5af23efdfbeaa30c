import { describe, expect, it } from 'vitest';
import { driverName, greetingFor } from './greeting';

const at = (hours: number, minutes: number) => new Date(2025, 2, 21, hours, minutes);

describe('greetingFor', () => {
  it.each([
    [0, 0, 'Good morning'],
    [11, 59, 'Good morning'],
    [12, 0, 'Good afternoon'],
    [17, 59, 'Good afternoon'],
    [18, 0, 'Good evening'],
    [23, 59, 'Good evening'],
  ] as const)('%i:%i → %s', (hours, minutes, expected) => {
    expect(greetingFor(at(hours, minutes))).toBe(expected);
  });
});

describe('driverName', () => {
  it('uses the first word of the display name', () => {
    expect(driverName('Sam Driver')).toBe('Sam');
    expect(driverName('  Priya   K. Shah ')).toBe('Priya');
    expect(driverName('Jo')).toBe('Jo');
  });

  it('says Driver when there is no name, including the server fallback "User"', () => {
    expect(driverName('')).toBe('Driver');
    expect(driverName('   ')).toBe('Driver');
    expect(driverName(null)).toBe('Driver');
    expect(driverName(undefined)).toBe('Driver');
    expect(driverName('User')).toBe('Driver');
  });

  it('keeps a real name that merely starts with User', () => {
    expect(driverName('User Smith')).toBe('User');
    expect(driverName('Username')).toBe('Username');
  });
});
