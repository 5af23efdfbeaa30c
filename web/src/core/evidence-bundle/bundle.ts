// The evidence bundle (issue 28): a ZIP a driver hands to the courier, a union or a tribunal,
// for a statement query or a range of days. One layout, written by the device (here) when every
// photo is on it and by the server otherwise (crates/server/src/evidence_bundle/), documented
// in docs/api.md "Evidence bundle":
//   summary.html            printable: the query's letter or the range, every evidence item
//   photos/<day>-<purpose>-<photo id>.jpg
//   manifest.json           every file above: name, bytes, SHA-256, the item's times
//   manifest.txt            the same, to read
// The manifest cannot list its own hash; the files it lists are everything else.
import { sha256HexOfBytes } from '@/core/mtd/sha256';
import { chainHead, firstBrokenLink, type ChainedItem } from '@/core/statement-queries/chain';
import { letterOf, type Letter, type LetterContext } from '@/core/statement-queries/letter';
import type { QueryContent } from '@/core/statement-queries/query';
import { evidenceWords, isEvidenceItem, type EvidenceWithDay } from '@/core/evidence/evidence';
import { formatShortDate, formatWeekdayDate } from '@/lib/format';
import { plural } from '@/lib/plural';
import { zipStored, type ZipFile } from './zip';

export const BUNDLE_FORMAT = 'delivery-tracker-evidence-bundle';
export const BUNDLE_VERSION = 1;

/** What the bundle says it is, in its summary and its manifest (the server writes the same words). */
export const OWN_RECORD =
  "This is the driver's own record, kept at the time on their device. Each item was recorded by the driver when it happened: " +
  'its device time is when they recorded it, its server time when the server first stored it.';

/** When an item has not reached the server yet (made offline, not synced). */
export const NOT_ON_SERVER = 'not on the server yet';

export interface BundleQuery {
  id: string;
  content: QueryContent;
  /** Who and what the query's letter names. */
  context: LetterContext;
}

export type BundleScope = { query: BundleQuery } | { from: string; to: string };

/** A photo's bytes and type, by its photo id. */
export interface BundlePhoto {
  bytes: Uint8Array;
  type: string;
}

export interface BundleInput {
  scope: BundleScope;
  /** The scope's evidence (core/evidence `evidenceFor`), oldest recorded first. */
  evidence: readonly EvidenceWithDay[];
  /** Every photo the evidence names. */
  photos: ReadonlyMap<string, BundlePhoto>;
  /** The driver's display name (may be empty). */
  driver: string;
  builtAt: Date;
}

export interface ManifestFile {
  name: string;
  bytes: number;
  sha256: string;
  /** The evidence item the file is the photo of; null for the summary. */
  evidenceId: string | null;
  /** The item's device time. */
  recordedAt: string | null;
  /** When the server first stored the item; null when it is not on the server yet (or for the summary). */
  createdAt: string | null;
}

export interface ManifestItem {
  id: string;
  type: string;
  /** Where it is kept: a day, a statement line or the query. */
  on: 'day' | 'line' | 'query';
  day: string | null;
  words: string;
  recordedAt: string;
  createdAt: string | null;
  /** The photo's file in the bundle. */
  photo: string | null;
}

export interface ManifestQuery {
  id: string;
  madeOn: string;
  total: number;
  /** The items recorded when the query was made (the differences, then the evidence), with their chain. */
  items: ChainedItem[];
  chain: { head: string; holds: boolean; firstChangedItem: number | null };
}

export interface Manifest {
  format: typeof BUNDLE_FORMAT;
  version: typeof BUNDLE_VERSION;
  statement: string;
  builtBy: 'device' | 'server';
  builtAt: string;
  driver: string;
  scope: { queryId: string } | { from: string; to: string };
  query: ManifestQuery | null;
  items: ManifestItem[];
  files: ManifestFile[];
}

export interface Bundle {
  fileName: string;
  bytes: Uint8Array<ArrayBuffer>;
  manifest: Manifest;
}

/** `evidence-query-2026-11-02.zip` (the day the query was made) or `evidence-2026-10-01-to-2026-10-31.zip`. */
export function bundleFileName(scope: { madeOn: string } | { from: string; to: string }): string {
  return 'madeOn' in scope ? `evidence-query-${scope.madeOn}.zip` : `evidence-${scope.from}-to-${scope.to}.zip`;
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/webp': 'webp' };

/** `photos/2026-11-02-proof-of-delivery-<id>.jpg`: sorts by day in a folder, says what it shows. */
export function photoFileName(day: string, purpose: string, photoId: string, type = 'image/jpeg'): string {
  const what = purpose.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return `photos/${day}-${what}-${photoId}.${EXTENSIONS[type] ?? 'jpg'}`;
}

/** The item's day: its day's, line's or query's, else the day it was recorded. */
function itemDay(e: EvidenceWithDay): string {
  return e.day ?? e.evidence.recordedAt.slice(0, 10);
}

/** The server's first-stored time, only once the server has the item (before, `createdAt` is the device's). */
function storedAt(e: EvidenceWithDay): string | null {
  return e.evidence.server ? e.evidence.createdAt : null;
}

/** Whether every photo the evidence names is in `photos` (else the server builds the bundle). */
export function missingPhotos(evidence: readonly EvidenceWithDay[], has: (photoId: string) => boolean): string[] {
  return evidence.flatMap((e) => (e.evidence.photoId && !has(e.evidence.photoId) ? [e.evidence.photoId] : []));
}

/** The bundle's files and manifest; `zip` them with `buildBundle`. */
export function bundleContents(input: BundleInput): { files: ZipFile[]; manifest: Manifest } {
  const encoder = new TextEncoder();
  const photoFiles: (ZipFile & { item: EvidenceWithDay })[] = [];
  const items: ManifestItem[] = input.evidence.map((e) => {
    const { evidence } = e;
    let photo: string | null = null;
    if (evidence.photoId) {
      const stored = input.photos.get(evidence.photoId);
      if (!stored) throw new Error(`Photo ${evidence.photoId} is not on this device`);
      photo = photoFileName(itemDay(e), evidence.purpose ?? 'other', evidence.photoId, stored.type);
      if (!photoFiles.some((f) => f.name === photo)) photoFiles.push({ name: photo, bytes: stored.bytes, item: e });
    }
    return { id: evidence.id, type: evidence.type, on: e.on, day: e.day, words: evidenceWords(evidence), recordedAt: evidence.recordedAt, createdAt: storedAt(e), photo };
  });
  const query = 'query' in input.scope ? manifestQuery(input.scope.query) : null;
  const letter = 'query' in input.scope ? letterOf(input.scope.query.content, input.scope.query.context) : null;
  const summary = encoder.encode(summaryHtml({ ...input, items, query, letter }));
  const listed: { file: ZipFile; item: EvidenceWithDay | null }[] = [{ file: { name: 'summary.html', bytes: summary }, item: null }, ...photoFiles.map((f) => ({ file: f, item: f.item }))];
  const files: ManifestFile[] = listed.map(({ file, item }) => ({
    name: file.name,
    bytes: file.bytes.length,
    sha256: sha256HexOfBytes(file.bytes),
    evidenceId: item?.evidence.id ?? null,
    recordedAt: item?.evidence.recordedAt ?? null,
    createdAt: item ? storedAt(item) : null,
  }));
  const manifest: Manifest = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    statement: OWN_RECORD,
    builtBy: 'device',
    builtAt: input.builtAt.toISOString(),
    driver: input.driver,
    scope: 'query' in input.scope ? { queryId: input.scope.query.id } : { from: input.scope.from, to: input.scope.to },
    query,
    items,
    files,
  };
  return {
    files: [
      ...listed.map(({ file }) => ({ name: file.name, bytes: file.bytes })),
      { name: 'manifest.json', bytes: encoder.encode(`${JSON.stringify(manifest, null, 2)}\n`) },
      { name: 'manifest.txt', bytes: encoder.encode(manifestText(manifest)) },
    ],
    manifest,
  };
}

/** The bundle as a ZIP, with its file name. */
export function buildBundle(input: BundleInput): Bundle {
  const { files, manifest } = bundleContents(input);
  const scope = 'query' in input.scope ? { madeOn: input.scope.query.content.madeOn } : input.scope;
  return { fileName: bundleFileName(scope), bytes: zipStored(files, input.builtAt), manifest };
}

function manifestQuery(query: BundleQuery): ManifestQuery {
  const broken = firstBrokenLink(query.content.items);
  return {
    id: query.id,
    madeOn: query.content.madeOn,
    total: query.content.total,
    items: query.content.items.map((item) => ({ ...item })),
    chain: { head: chainHead(query.content.items), holds: broken === null, firstChangedItem: broken === null ? null : broken + 1 },
  };
}

/** The chain's check in words (summary and manifest.txt). */
export function chainWords(chain: ManifestQuery['chain']): string {
  return chain.holds
    ? `Chain checked: every item is as recorded (head ${chain.head}).`
    : `Item ${chain.firstChangedItem ?? 0} has changed since the query was recorded: the chain no longer matches from there.`;
}

/** The manifest to read: what the bundle is, then each file with its size, hash and times. */
export function manifestText(manifest: Manifest): string {
  const scope = 'queryId' in manifest.scope ? `Statement query ${manifest.scope.queryId}` : `${formatShortDate(manifest.scope.from)} to ${formatShortDate(manifest.scope.to)}`;
  const lines = [
    'Evidence bundle',
    manifest.statement,
    '',
    `For: ${scope}`,
    ...(manifest.driver ? [`Driver: ${manifest.driver}`] : []),
    `Built by the ${manifest.builtBy} at ${manifest.builtAt}`,
    ...(manifest.query ? [chainWords(manifest.query.chain)] : []),
    '',
    'Files (SHA-256 of each file as it is in this ZIP):',
  ];
  for (const file of manifest.files) {
    lines.push('', file.name, `  ${file.bytes} bytes`, `  SHA-256 ${file.sha256}`);
    if (file.evidenceId !== null) {
      lines.push(`  Recorded on the device: ${file.recordedAt ?? ''}`, `  First stored by the server: ${file.createdAt ?? NOT_ON_SERVER}`);
    }
  }
  lines.push('', 'manifest.json holds the same, with every item, for programs to check.', '');
  return lines.join('\n');
}

/** How many evidence items the query's chain holds, under its letter. */
export function recordedEvidenceWords(count: number): string {
  return `The query recorded ${count} ${plural(count, 'evidence item')} in its chain.`;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const ON_WORDS: Record<ManifestItem['on'], string> = { day: 'the day', line: 'a statement line', query: 'the query' };

function summaryHtml(input: BundleInput & { items: readonly ManifestItem[]; query: ManifestQuery | null; letter: Letter | null }): string {
  const title = input.letter ? `Evidence bundle: ${input.letter.title}` : 'query' in input.scope ? 'Evidence bundle' : `Evidence bundle: ${formatShortDate(input.scope.from)} to ${formatShortDate(input.scope.to)}`;
  const parts: string[] = [
    '<!doctype html>',
    '<html lang="en-GB">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escape(title)}</title>`,
    '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:1.5rem auto;padding:0 1rem;color:#111;background:#fff}' +
      'h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem}.own{border:2px solid #111;padding:.75rem}' +
      'table{border-collapse:collapse;width:100%}th,td{border:1px solid #666;padding:.35rem;text-align:left;vertical-align:top}' +
      '.amount{text-align:right;white-space:nowrap}img{max-width:100%;height:auto;display:block;margin-top:.35rem}' +
      '.hash{font-family:monospace;word-break:break-all}@media print{body{margin:0}}</style>',
    '</head>',
    '<body>',
    '<main>',
    `<h1>${escape(title)}</h1>`,
    `<p class="own">${escape(OWN_RECORD)}</p>`,
    `<p>${input.driver ? `Driver: ${escape(input.driver)}. ` : ''}Bundle built at ${escape(input.builtAt.toISOString())}.</p>`,
  ];
  if (input.letter && input.query) {
    const { letter } = input;
    parts.push(
      '<h2>The query</h2>',
      `<p>${escape(letter.dated)}</p>`,
      `<p>${escape(letter.greeting)}</p>`,
      `<p>${escape(letter.opening)}</p>`,
      '<table><thead><tr><th scope="col">#</th><th scope="col">Day</th><th scope="col">Difference</th><th scope="col" class="amount">Amount</th></tr></thead><tbody>',
      ...letter.items.map(
        (item) => `<tr><td>${item.number}</td><td>${escape(item.date)}</td><td>${escape(item.words)}<br><small>${escape(item.figures)}</small></td><td class="amount">${escape(item.amount)}</td></tr>`,
      ),
      '</tbody></table>',
      `<p><strong>${escape(letter.total)}</strong></p>`,
      `<p>${escape(letter.closing)}</p>`,
      ...(letter.signature ? [`<p>${escape(letter.signature)}</p>`] : []),
      `<p>${escape(letter.recorded)}. ${escape(chainWords(input.query.chain))}</p>`,
      `<p>${escape(recordedEvidenceWords(input.query.items.filter(isEvidenceItem).length))}</p>`,
    );
  }
  parts.push('<h2>Evidence kept at the time</h2>');
  if (input.items.length === 0) parts.push('<p>No evidence items.</p>');
  else {
    parts.push('<table><thead><tr><th scope="col">Day</th><th scope="col">Item</th><th scope="col">Recorded on the device</th><th scope="col">First stored by the server</th></tr></thead><tbody>');
    for (const [index, item] of input.items.entries()) {
      const e = input.evidence[index]!.evidence;
      // The words hold the text's first line, shortened: the whole text follows when there is more.
      const full = e.text && !item.words.includes(e.text) ? `<br>${escape(e.text).replace(/\r?\n/g, '<br>')}` : '';
      const photo = item.photo ? `<br><a href="${escape(item.photo)}">${escape(item.photo)}</a><img src="${escape(item.photo)}" alt="${escape(item.words)}">` : '';
      parts.push(
        `<tr><td>${item.day ? escape(formatWeekdayDate(item.day)) : ''}<br><small>on ${ON_WORDS[item.on]}</small></td><td>${escape(item.words)}${full}${photo}</td><td>${escape(item.recordedAt)}</td><td>${escape(item.createdAt ?? NOT_ON_SERVER)}</td></tr>`,
      );
    }
    parts.push('</tbody></table>');
  }
  parts.push("<p>Each file's SHA-256 and times are in manifest.txt and manifest.json beside this page.</p>", '</main>', '</body>', '</html>', '');
  return parts.join('\n');
}
