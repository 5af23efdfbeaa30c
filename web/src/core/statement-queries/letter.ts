// The query as a dated letter: the same words for the printable page and for the plain text a
// driver pastes into the courier's e-mail or portal, from the items frozen when the query was
// made (never from today's matching, which may since have changed).
import { isEvidenceItem } from '@/core/evidence/evidence';
import { formatPence, formatShortDate, formatWeekdayDate } from '@/lib/format';
import { chainHead, type ChainedItem } from './chain';
import type { QueryContent } from './query';

export interface LetterContext {
  courierName: string;
  periodStart: string;
  periodEnd: string;
  /** The statement's own reference, when it has one. */
  reference: string;
  /** Who the letter is from (the driver's display name); empty to leave it unsigned. */
  from: string;
}

export interface LetterItem {
  number: number;
  date: string;
  words: string;
  /** "Logged: … · Paid: … · Card's rate: …" */
  figures: string;
  amount: string;
}

export interface Letter {
  title: string;
  dated: string;
  greeting: string;
  opening: string;
  items: LetterItem[];
  /** The evidence the query recorded (version 2), one line each: "Mon 2 Mar 2026: Photo (proof of delivery)". */
  evidence: string[];
  total: string;
  closing: string;
  signature: string;
  /** "Recorded 20/03/2026, chain 4d1e19a9" */
  recorded: string;
}

/** A signed amount in words: owed to the driver, or paid over the log. */
export function amountWords(pence: number): string {
  return pence < 0 ? `${formatPence(pence)} (paid over my log)` : formatPence(pence);
}

function itemOf(item: ChainedItem, index: number): LetterItem {
  const figures = [`Logged: ${item.logged || '—'}`, `Paid: ${item.paid || '—'}`, item.cardRate === null ? null : `Card’s rate: ${formatPence(item.cardRate)}`].filter((part) => part !== null);
  return {
    number: index + 1,
    date: item.date === null ? 'Whole statement' : formatWeekdayDate(item.date),
    words: item.words,
    figures: figures.join(' · '),
    amount: amountWords(item.amount),
  };
}

/** The short record that ties the letter to its chain: the day it was made and the chain's head. */
export function recordedWords(query: Pick<QueryContent, 'madeOn' | 'items'>): string {
  return `Recorded ${formatShortDate(query.madeOn)}, chain ${chainHead(query.items).slice(0, 8)}`;
}

export function letterOf(query: QueryContent, context: LetterContext): Letter {
  const period = `${formatShortDate(context.periodStart)} to ${formatShortDate(context.periodEnd)}`;
  const differences = query.items.filter((item) => !isEvidenceItem(item));
  const count = differences.length;
  return {
    title: `Query about the statement for ${period}`,
    dated: `Dated ${formatShortDate(query.madeOn)}`,
    greeting: `To ${context.courierName},`,
    opening:
      `I have checked your statement for ${period}${context.reference ? ` (reference ${context.reference})` : ''} against my own record of each day ` +
      `and the rate card in force on it. ${count === 1 ? 'This difference is' : `These ${count} differences are`} not explained by the statement:`,
    items: differences.map(itemOf),
    evidence: query.items.filter(isEvidenceItem).map((item) => `${item.date === null ? 'Whole statement' : formatWeekdayDate(item.date)}: ${item.words}`),
    total: query.total >= 0 ? `Total owed to me: ${formatPence(query.total)}` : `Total: ${amountWords(query.total)}`,
    closing: 'Please pay the total with the next statement or tell me in writing why it is not due. I keep my own dated record of each day.',
    signature: context.from,
    recorded: recordedWords(query),
  };
}

/** The letter as plain text, for the courier's e-mail or portal. */
export function letterText(letter: Letter): string {
  const items = letter.items.map((item) => `${item.number}. ${item.date}: ${item.words}\n   ${item.figures}\n   Amount: ${item.amount}`);
  return [
    letter.title,
    letter.dated,
    '',
    letter.greeting,
    '',
    letter.opening,
    '',
    ...items,
    '',
    letter.total,
    ...(letter.evidence.length > 0 ? ['', 'Evidence I kept at the time:', ...letter.evidence.map((line) => `- ${line}`)] : []),
    '',
    letter.closing,
    ...(letter.signature ? ['', letter.signature] : []),
    '',
    letter.recorded,
    '',
  ].join('\n');
}
