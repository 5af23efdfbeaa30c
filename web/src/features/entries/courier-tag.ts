import type { LocalCourier } from '@/sync/types';

/** What a day card says about its courier. */
export interface CourierTag {
  name: string;
  colour: string;
}

/**
 * The courier to name on a day, or null while the driver has only one (naming it on every day
 * would be noise). A day for a courier deleted since is still told apart from the others.
 */
export function courierShown(couriers: readonly LocalCourier[] | undefined, courierId: string): CourierTag | null {
  if (!couriers || couriers.length < 2) return null;
  const courier = couriers.find((c) => c.id === courierId);
  return courier ? { name: courier.name, colour: courier.colour } : { name: 'Deleted courier', colour: 'transparent' };
}
