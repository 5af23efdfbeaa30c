import { CloudUpload, ImageOff, X } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { useReceipt } from '@/lib/sync-react/use-receipts';
import { useObjectUrl } from '@/lib/use-object-url';
import styles from './expenses.module.css';

interface StoredReceiptProps {
  id: string;
  holderId: string;
  /** Which photo of how many, for the words a screen reader says: "Receipt photo 2 of 3". */
  name: string;
  onRetry: () => void;
  onRemove: () => void;
}

/**
 * A receipt photo of a saved expense, from the device: tap to see it large. Says when it still
 * waits to upload, or why the server refused it, with Try again and Remove photo.
 */
export function StoredReceipt({ id, holderId, name, onRetry, onRemove }: StoredReceiptProps) {
  const receipt = useReceipt(id, holderId);
  const [open, setOpen] = useState(false);
  return (
    <li className={styles.receipt} data-state={receipt.state}>
      <Thumb url={receipt.url} name={name} onOpen={() => setOpen(true)} />
      {receipt.state === 'waiting' ? (
        <span className={styles.receiptState}>
          <CloudUpload aria-hidden="true" size={14} />
          Waiting to upload
        </span>
      ) : null}
      {receipt.state === 'missing' ? <span className={styles.receiptState}>Not on this device yet</span> : null}
      {receipt.state === 'failed' ? (
        <>
          <div className={styles.failure}>
            <p className={styles.failureTitle}>This photo could not be uploaded</p>
            <p className={styles.failureReason}>{receipt.error}</p>
          </div>
          <div className={styles.failureActions}>
            <Button variant="secondary" onClick={onRetry}>
              Try again
            </Button>
            <Button variant="ghost" onClick={onRemove}>
              Remove photo
            </Button>
          </div>
        </>
      ) : null}
      {open && receipt.url ? <ReceiptViewer url={receipt.url} name={name} onClose={() => setOpen(false)} /> : null}
    </li>
  );
}

interface FormReceiptProps {
  /** A photo picked in this form, not saved yet. */
  blob?: Blob | undefined;
  /** A photo the expense already has. */
  stored?: { id: string; holderId: string } | undefined;
  name: string;
  onRemove: () => void;
}

/** A photo in the expense form: its thumbnail, large on tap, and a button to take it off. */
export function FormReceipt({ blob, stored, name, onRemove }: FormReceiptProps) {
  return stored ? <StoredFormReceipt {...stored} name={name} onRemove={onRemove} /> : <NewFormReceipt blob={blob} name={name} onRemove={onRemove} />;
}

function NewFormReceipt({ blob, name, onRemove }: { blob: Blob | undefined; name: string; onRemove: () => void }) {
  return <FormThumb url={useObjectUrl(blob)} name={name} onRemove={onRemove} />;
}

function StoredFormReceipt({ id, holderId, name, onRemove }: { id: string; holderId: string; name: string; onRemove: () => void }) {
  return <FormThumb url={useReceipt(id, holderId).url} name={name} onRemove={onRemove} />;
}

function FormThumb({ url, name, onRemove }: { url: string | null; name: string; onRemove: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <li className={`${styles.receipt} ${styles.formThumb}`}>
      <Thumb url={url} name={name} onOpen={() => setOpen(true)} />
      <button type="button" className={styles.removeThumb} aria-label={`Remove ${name.toLowerCase()}`} onClick={onRemove}>
        <X aria-hidden="true" />
      </button>
      {open && url ? <ReceiptViewer url={url} name={name} onClose={() => setOpen(false)} /> : null}
    </li>
  );
}

function Thumb({ url, name, onOpen }: { url: string | null; name: string; onOpen: () => void }) {
  // A file the browser cannot draw (kept as picked, for the server to judge) shows as a blank photo.
  const [broken, setBroken] = useState<string | null>(null);
  const shown = url !== null && broken !== url;
  return (
    <button type="button" className={styles.thumbButton} onClick={onOpen} disabled={!shown} aria-label={`View ${name.toLowerCase()}`}>
      {shown ? (
        <img className={styles.thumb} src={url} alt={name} onError={() => setBroken(url)} />
      ) : (
        <span className={styles.thumbEmpty}>
          <ImageOff aria-hidden="true" />
        </span>
      )}
    </button>
  );
}

/** The photo as large as the screen allows, to read the receipt. */
function ReceiptViewer({ url, name, onClose }: { url: string; name: string; onClose: () => void }) {
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal labelledBy={titleId} onEscape={onClose} initialFocus={closeRef} className={styles.viewer}>
      <h2 id={titleId} className={styles.viewerTitle}>
        {name}
      </h2>
      <img className={styles.large} src={url} alt={name} />
      <div className={styles.viewerActions}>
        <Button ref={closeRef} variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </Modal>
  );
}
