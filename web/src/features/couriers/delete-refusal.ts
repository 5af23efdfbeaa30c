// Why a courier cannot be deleted, in words, or null when it can.
import type { CourierContent } from '@/sync/types';

interface Live {
  couriers: readonly { id: string; deleted: 0 | 1 }[];
  entries: readonly { courierId: string; deleted: 0 | 1 }[];
  statementChecks: readonly { courierId: string; deleted: 0 | 1 }[];
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function deleteRefusal(courier: CourierContent & { id: string }, { couriers, entries, statementChecks }: Live): string | null {
  const others = couriers.filter((c) => !c.deleted && c.id !== courier.id);
  if (others.length === 0) return `${courier.name} is your only courier: every day needs one, so add another courier before deleting this one.`;
  const days = entries.filter((e) => !e.deleted && e.courierId === courier.id).length;
  const checks = statementChecks.filter((i) => !i.deleted && i.courierId === courier.id).length;
  if (days === 0 && checks === 0) return null;
  const held = [days ? `${count(days, 'day is', 'days are')} logged` : null, checks ? `${count(checks, 'statement check is', 'statement checks are')} saved` : null]
    .filter(Boolean)
    .join(' and ');
  return `${courier.name} cannot be deleted: ${held} for it. Delete ${days + checks === 1 ? 'it' : 'them'} first.`;
}
