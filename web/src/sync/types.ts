// Shapes stored on the device and sent over the wire. Money is integer pence everywhere.

export interface EntryContent {
  date: string; // YYYY-MM-DD
  stops: number;
  extra: number; // pence
  notes: string;
  total: number; // pence, fixed when the entry is saved
  /** The courier the day was worked for (the default courier's id is the user's id). */
  courierId: string;
  /** The rate card that priced the day, or null when it was priced with no card (extra only). */
  rateCardId: string | null;
  parcels: number | null;
  collections: number | null;
  /** Failed or returned items. */
  failed: number | null;
  startTime: string | null; // HH:MM
  finishTime: string | null; // HH:MM, before startTime when the shift crosses midnight
  /**
   * The driver said this is a separate shift on a day that already has one for this courier,
   * so it is never flagged as the same day logged twice (features/entries/same-day.ts). Its
   * pay counts like any day's; the screens show the shifts of a day as one day.
   */
  separateShift: boolean;
}

/** Which days a courier's statements cover (see lib/pay-period.ts). */
export type PeriodKind = 'weekly' | 'fourFourFive' | 'monthly';

/** A courier the driver works for. */
export interface CourierContent {
  name: string;
  colour: string; // #rrggbb
  periodKind: PeriodKind;
  /** Weekly: periods start on this date's weekday; 4-4-5: a cycle starts here; monthly: on this day of month (1–28). */
  periodAnchor: string;
  /** A period's pay arrives this many weeks after it ends. */
  arrearsWeeks: number;
}

/** A peak period on a rate card: extra pence per stop and/or a multiplier, from/to inclusive. */
export interface Peak {
  from: string;
  to: string;
  extraPerStop: number | null;
  multiplierPercent: number | null;
}

/**
 * How a courier pays from `validFrom` until its next card. Null means "not paid this way".
 * Pricing is lib/pay.ts `priceWithCard`.
 */
export interface RateCardContent {
  courierId: string;
  validFrom: string;
  label: string;
  perStop: PayTier[] | null;
  perParcel: number | null;
  parcelCapPerStop: number | null;
  perCollection: number | null;
  perFailed: number | null;
  dayRate: number | null;
  hourly: number | null; // pence per hour
  peaks: Peak[];
}

export type DeductionRepeat = 'once' | 'weekly' | 'monthly';

/** Money a courier takes off the statement: van hire, admin fees, device rent, damage… */
export interface DeductionContent {
  courierId: string;
  label: string;
  amount: number; // pence per occurrence
  repeat: DeductionRepeat;
  from: string;
  to: string | null; // null: once, or recurring with no end
  /** What it is for, as an expense category (van hire is a vehicle cost); null: not said (saved before it could be). */
  purpose: ExpenseCategory | null;
  /** The vehicle a vehicle cost is for; null: none. */
  vehicleId: string | null;
}

/** The SA103 expense categories in a driver's words (lib/tax/expense-categories.ts maps them). */
export type ExpenseCategory =
  | 'fuel'
  | 'vehicleRepairs'
  | 'vehicleInsurance'
  | 'vehicleTax'
  | 'vehicleHire'
  | 'parkingTolls'
  | 'travel'
  | 'phone'
  | 'office'
  | 'equipment'
  | 'clothing'
  | 'insurance'
  | 'bankCharges'
  | 'accountancy'
  | 'subscriptions'
  | 'other';

/** Money the driver spent on the business, once or repeating, with its receipt photos. */
export interface ExpenseContent {
  date: string;
  amount: number; // pence per occurrence
  category: ExpenseCategory;
  note: string;
  courierId: string | null;
  vehicleId: string | null;
  repeat: DeductionRepeat;
  /** Null when once, or repeating with no end. */
  repeatUntil: string | null;
  /** Ids of the receipt photos (receiptPhotos on the device, /api/v1/receipts/{id} on the server). */
  receipts: string[];
}

export type VehicleType = 'carVan' | 'motorcycle' | 'bicycle';
/** HMRC's flat rate per business mile, or actual costs times the business-use share. Kept once used. */
export type VehicleMethod = 'flatRate' | 'actualCosts';

export interface VehicleContent {
  name: string;
  type: VehicleType;
  method: VehicleMethod;
  /** Home to depot, one way, whole miles: taken off twice a day from a day's odometer miles (issue 26). */
  commuteMiles: number;
}

/** One day's driving in one vehicle, in whole miles. */
export interface MileageContent {
  date: string;
  vehicleId: string;
  courierId: string | null;
  odometerStart: number | null;
  odometerEnd: number | null;
  businessMiles: number;
  /** Home to depot: not claimable, kept for the log and the business-use share. */
  commuteMiles: number;
  note: string;
}

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
  server: ServerCopyOf<C> | null;
};

export type LocalEntry = LocalRecord<EntryContent>;

/**
 * What a courier's statement said for a period (an "invoice check"). The comparison with the
 * driver's own entries is computed on the device from the entries, so it stays current.
 */
export interface InvoiceContent {
  periodStart: string; // YYYY-MM-DD, inclusive
  periodEnd: string; // YYYY-MM-DD, inclusive
  paid: number; // pence, what the statement says was paid
  stops: number | null; // stops on the statement, when it gives them
  reference: string; // statement number or a short note, may be empty
  courierId: string;
  parcels: number | null;
  collections: number | null;
  deductions: number | null; // pence, the statement's total deductions
  status: StatementStatus;
  note: string;
}

export type StatementStatus = 'unchecked' | 'matches' | 'disputed' | 'resolved';

export type MutationName =
  | 'entry.put'
  | 'entry.delete'
  | 'invoice.put'
  | 'invoice.delete'
  | 'courier.put'
  | 'courier.delete'
  | 'rateCard.put'
  | 'rateCard.delete'
  | 'deduction.put'
  | 'deduction.delete'
  | 'expense.put'
  | 'expense.delete'
  | 'vehicle.put'
  | 'vehicle.delete'
  | 'mileage.put'
  | 'mileage.delete'
  | 'profile.update'
  | 'settings.put';

export type LocalInvoice = LocalRecord<InvoiceContent>;
export type LocalCourier = LocalRecord<CourierContent>;
export type LocalRateCard = LocalRecord<RateCardContent>;
export type LocalDeduction = LocalRecord<DeductionContent>;
export type LocalExpense = LocalRecord<ExpenseContent>;
export type LocalVehicle = LocalRecord<VehicleContent>;
export type LocalMileage = LocalRecord<MileageContent>;

/**
 * A receipt photo kept on the device: shown at once, uploaded from a queue (sync/receipts.ts),
 * and kept after upload as the offline copy. Only an acknowledgement or "Remove photo" ends it.
 */
export interface ReceiptPhoto {
  id: string;
  expenseId: string;
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
  /** 1 when parked: shown to the user with Retry and Discard, skipped by the engine. */
  parked: 0 | 1;
}

export interface MutationResult {
  id: string;
  status: 'applied' | 'rejected';
  code?: string;
  message?: string;
}

export interface PayTier {
  /** Stops up to (inclusive); absent on the final tier. */
  stopCount?: number;
  /** Pence per stop. */
  rate: number;
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

export interface SettingsData {
  theme: Theme;
  taxRegion: TaxRegion;
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
  | { kind: 'invoice'; id: string; version: number; deleted: boolean; data?: InvoiceContent & { createdAt: string; updatedAt: string } }
  | { kind: 'courier'; id: string; version: number; deleted: boolean; data?: CourierContent & { createdAt: string; updatedAt: string } }
  | { kind: 'rateCard'; id: string; version: number; deleted: boolean; data?: RateCardContent & { createdAt: string; updatedAt: string } }
  | { kind: 'deduction'; id: string; version: number; deleted: boolean; data?: DeductionContent & { createdAt: string; updatedAt: string } }
  | { kind: 'expense'; id: string; version: number; deleted: boolean; data?: ExpenseContent & { createdAt: string; updatedAt: string } }
  | { kind: 'vehicle'; id: string; version: number; deleted: boolean; data?: VehicleContent & { createdAt: string; updatedAt: string } }
  | { kind: 'mileage'; id: string; version: number; deleted: boolean; data?: MileageContent & { createdAt: string; updatedAt: string } }
  | { kind: 'profile'; id: string; version: number; deleted: boolean; data?: ProfileData }
  | { kind: 'settings'; id: string; version: number; deleted: boolean; data?: SettingsData };

export type EntryChange = Extract<Change, { kind: 'entry' }>;
export type InvoiceChange = Extract<Change, { kind: 'invoice' }>;

export interface PullPage {
  changes: Change[];
  cursor: number;
  hasMore: boolean;
}
