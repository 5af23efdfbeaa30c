// Spec §2 "Dashboard": the greeting changes at 12:00 and 18:00 (device time).

export type Greeting = 'Good morning' | 'Good afternoon' | 'Good evening';

export function greetingFor(now: Date): Greeting {
  const hour = now.getHours();
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

/** What the server sends when a user has no display name (crates/domain DisplayName::FALLBACK). */
const SERVER_FALLBACK_NAME = 'User';

/**
 * The first word of the display name, or "Driver" when there is none. The server fills a
 * missing name with "User"; greeting a guest as "User" would read as a bug, so that counts as none.
 */
export function driverName(displayName: string | null | undefined): string {
  const first = (displayName ?? '').trim().split(/\s+/)[0] ?? '';
  if (first === '' || (displayName ?? '').trim() === SERVER_FALLBACK_NAME) return 'Driver';
  return first;
}
