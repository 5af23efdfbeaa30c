// Shapes stored on the device and sent over the wire. Money is integer pence everywhere.

import type {
  CheckStatus,
  ExpenseCategory,
  GeneratedCourierContent,
  GeneratedDeductionContent,
  GeneratedEntryContent,
  GeneratedExpenseContent,
  GeneratedFuelFillContent,
  GeneratedInvoiceContent,
  GeneratedMileageContent,
  GeneratedSentUpdateContent,
  GeneratedStatementQueryContent,
  GeneratedEvidenceContent,
  GeneratedRateCardContent,
  GeneratedStatementFormatContent,
  GeneratedStatementLineContent,
  GeneratedVehicleContent,
  PayTier,
  Peak,
  PeriodKind,
  Repeat,
  VehicleMethod,
  VehicleType,
  MUTATIONS,
} from './contract.generated';

// Each kind's content is generated from the Rust domain (contract.generated.ts: the pulled
// data without its timestamps); the field notes live on the Rust wire types (crates/domain/src/sync.rs).
export type { ExpenseCategory, PayTier, Peak, PeriodKind, VehicleMethod, VehicleType };

/** A logged day: money in pence, its total fixed when it is saved; `separateShift`: see features/entries/same-day.ts. */
export type EntryContent = GeneratedEntryContent;
/** A courier the driver works for (pay periods: core/pay-periods/pay-period.ts). */
export type CourierContent = GeneratedCourierContent;
/** How a courier pays from `validFrom` until its next card; pricing is core/pay/pay.ts `priceWithCard`. */
export type RateCardContent = GeneratedRateCardContent;
export type DeductionRepeat = Repeat;
/** Money a courier takes off the statement: van hire, admin fees, device rent, damage… */
export type DeductionContent = GeneratedDeductionContent;
/** Money the driver spent on the business, once or repeating, with its receipt photos. */
export type ExpenseContent = GeneratedExpenseContent;
export type VehicleContent = GeneratedVehicleContent;
/** One day's driving in one vehicle, in whole miles. */
export type MileageContent = GeneratedMileageContent;
export type SentUpdateContent = GeneratedSentUpdateContent;
/** Fuel or charge put into a vehicle: a log for its economy, never an expense. */
export type FuelFillContent = GeneratedFuelFillContent;
export type StatementQueryContent = GeneratedStatementQueryContent;
export type EvidenceContent = GeneratedEvidenceContent;

/** What the server last confirmed for a record: restored when a change is discarded. */
export type ServerCopyOf<C> = C & { version: number };
export type ServerCopy = ServerCopyOf<EntryContent>;

export type RecordSyncState = 'synced' | 'pending' | 'parked';

/** A synced record on the device: its content, where it stands, and the server's copy. */
export type LocalRecord<C> = C & {
  id: string;
  createdAt: string;
  updatedAt: string;
  /** 1 for a tombstone (numbers index in IndexedDB; booleans do not). */
  deleted: 0 | 1;
  syncState: RecordSyncState;
  /**
   * What the server last confirmed: null when it has no live copy (never had one, or deleted it);
   * a version number when it is this record's own content at that version (a pulled record not
   * changed here since: stored once, not twice, as a first sync stores years of them, issue 30);
   * else its full copy. Read it through records.ts (serverCopyOf, serverVersionOf), never directly.
   */
  server: ServerCopyOf<C> | number | null;
};

export type LocalEntry = LocalRecord<EntryContent>;

/**
 * What a courier's statement said for a period (a statement check). The comparison with the
 * driver's own entries is computed on the device from the entries, so it stays current.
 */
export type StatementCheckContent = GeneratedInvoiceContent;

export type StatementStatus = CheckStatus;

/** Each kind's put and delete (contract.generated.ts), and the two singletons' mutations. */
export type MutationName = (typeof MUTATIONS)[keyof typeof MUTATIONS][keyof (typeof MUTATIONS)[keyof typeof MUTATIONS]] | 'profile.update' | 'settings.put';

export type LocalStatementCheck = LocalRecord<StatementCheckContent>;
export type LocalCourier = LocalRecord<CourierContent>;
export type LocalRateCard = LocalRecord<RateCardContent>;
export type LocalDeduction = LocalRecord<DeductionContent>;
export type LocalExpense = LocalRecord<ExpenseContent>;
export type LocalVehicle = LocalRecord<VehicleContent>;
export type LocalMileage = LocalRecord<MileageContent>;
export type LocalSentUpdate = LocalRecord<SentUpdateContent>;
export type LocalFuelFill = LocalRecord<FuelFillContent>;
export type LocalStatementQuery = LocalRecord<StatementQueryContent>;
export type LocalEvidence = LocalRecord<EvidenceContent>;

/** One line of a courier's statement, on its statement check (issue 28). */
export type StatementLineContent = GeneratedStatementLineContent;
export type LocalStatementLine = LocalRecord<StatementLineContent>;
/** How a courier's statement file reads: the column mapping saved once per courier. */
export type StatementFormatContent = GeneratedStatementFormatContent;
export type LocalStatementFormat = LocalRecord<StatementFormatContent>;

/**
 * A receipt photo kept on the device: shown at once, uploaded from a queue (sync/receipts.ts),
 * and kept after upload as the offline copy. Only an acknowledgement or "Remove photo" ends it.
 */
export interface ReceiptPhoto {
  id: string;
  /** The record that names it: an expense (its `receipts`) or an evidence item (its `photoId`). */
  holderId: string;
  blob: Blob;
  type: string;
  bytes: number;
  createdAt: number;
  /** When the server acknowledged it; null while it waits (or was refused). */
  uploadedAt: number | null;
  /** The server's reason for a permanent refusal, shown with Try again and Remove photo. */
  error: string | null;
}

export interface OutboxItem {
  seq?: number; // auto-increment: push order
  mutationId: string;
  name: MutationName;
  args: Record<string, unknown>;
  recordId: string;
  createdAt: number;
  attempts: number;
  lastError: string | null;
  /** The problems the server named by field when it refused this change (wire field names); absent on older items. */
  fieldErrors?: RefusedFields | null;
  /** 1 when parked: shown to the user with Retry and Discard, skipped by the engine. */
  parked: 0 | 1;
}

/** A refused change's problems by field, as the server names them (the REST error shape). */
export type RefusedFields = Readonly<Record<string, readonly string[]>>;

export interface MutationResult {
  id: string;
  status: 'applied' | 'rejected';
  code?: string;
  message?: string;
  /** A `validation` refusal's problems by field. */
  fields?: RefusedFields;
}

export interface ProfileData {
  displayName: string;
  email: string | null;
  bio: string;
  photoURL: string | null;
  role: 'free' | 'pro';
  isAnonymous: boolean;
  paymentConfig: { tiers: PayTier[] };
  createdAt: string;
  updatedAt: string;
}

export type Theme = 'dark' | 'light';

/** Which Income Tax bands the tax year uses: the rest of the UK's, or Scotland's. */
export type TaxRegion = 'uk' | 'scotland';

/**
 * Which quarters the Making Tax Digital updates follow: HMRC's standard ones (ending 5 July,
 * 5 October, 5 January, 5 April) or the calendar quarters a trader may elect.
 */
export type MtdQuarters = 'standard' | 'calendar';

export interface SettingsData {
  theme: Theme;
  taxRegion: TaxRegion;
  quarters: MtdQuarters;
  /** Days a sent statement query may go unanswered before the reminder (1 to 90). */
  queryReminderDays: number;
  updatedAt: string;
}

/** What a device may change in its profile; the server owns everything else. */
export interface ProfilePatch {
  displayName?: string;
  bio?: string;
  paymentConfig?: { tiers: PayTier[] };
}

/** The user's profile and settings: one local document each, synced like entries. */
export type LocalDoc =
  | { kind: 'profile'; data: ProfileData | null; patch: ProfilePatch; acked?: ProfilePatch; server: ProfileData | null; version: number; syncState: RecordSyncState }
  | { kind: 'settings'; data: SettingsData | null; patch: Partial<SettingsData>; acked?: Partial<SettingsData>; server: SettingsData | null; version: number; syncState: RecordSyncState };

export type DocKind = LocalDoc['kind'];

export type Change =
  | { kind: 'entry'; id: string; version: number; deleted: boolean; data?: EntryContent & { createdAt: string; updatedAt: string } }
  | { kind: 'invoice'; id: string; version: number; deleted: boolean; data?: StatementCheckContent & { createdAt: string; updatedAt: string } }
  | { kind: 'courier'; id: string; version: number; deleted: boolean; data?: CourierContent & { createdAt: string; updatedAt: string } }
  | { kind: 'rateCard'; id: string; version: number; deleted: boolean; data?: RateCardContent & { createdAt: string; updatedAt: string } }
  | { kind: 'deduction'; id: string; version: number; deleted: boolean; data?: DeductionContent & { createdAt: string; updatedAt: string } }
  | { kind: 'expense'; id: string; version: number; deleted: boolean; data?: ExpenseContent & { createdAt: string; updatedAt: string } }
  | { kind: 'vehicle'; id: string; version: number; deleted: boolean; data?: VehicleContent & { createdAt: string; updatedAt: string } }
  | { kind: 'mileage'; id: string; version: number; deleted: boolean; data?: MileageContent & { createdAt: string; updatedAt: string } }
  | { kind: 'statementLine'; id: string; version: number; deleted: boolean; data?: StatementLineContent & { createdAt: string; updatedAt: string } }
  | { kind: 'statementFormat'; id: string; version: number; deleted: boolean; data?: StatementFormatContent & { createdAt: string; updatedAt: string } }
  | { kind: 'sentUpdate'; id: string; version: number; deleted: boolean; data?: SentUpdateContent & { createdAt: string; updatedAt: string } }
  | { kind: 'statementQuery'; id: string; version: number; deleted: boolean; data?: StatementQueryContent & { createdAt: string; updatedAt: string } }
  | { kind: 'evidence'; id: string; version: number; deleted: boolean; data?: EvidenceContent & { createdAt: string; updatedAt: string } }
  | { kind: 'profile'; id: string; version: number; deleted: boolean; data?: ProfileData }
  | { kind: 'settings'; id: string; version: number; deleted: boolean; data?: SettingsData };

export type EntryChange = Extract<Change, { kind: 'entry' }>;
export type StatementCheckChange = Extract<Change, { kind: 'invoice' }>;

export interface PullPage {
  changes: Change[];
  cursor: number;
  hasMore: boolean;
}
