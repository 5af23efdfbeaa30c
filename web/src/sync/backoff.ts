// Retry delays: exponential with "full jitter", so many devices coming back online at once
// do not hammer the server in lockstep.
export const BASE_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 60_000;

export function backoffDelay(failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
