// "Download evidence bundle": the query page's and History's, one button for a query or a range
// of days. Says where the bundle was built (here, or by the server when a photo was not on this
// device) and why it could not be, in words.
import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/button';
import { FormAlert } from '@/components/form-alert';
import { isApiError } from '@/lib/api';
import { downloadBlob } from '@/lib/download';
import { useSyncHandle } from '@/lib/sync-react/use-sync';
import { makeEvidenceBundle, type BundleRequest } from './evidence-bundle';
import styles from './evidence.module.css';

interface EvidenceBundleButtonProps {
  /** The query (with its letter's names) or the days; read when pressed. */
  request: () => BundleRequest;
  /** The driver's display name, for the summary. */
  driver: string;
  disabled?: boolean;
}

type State = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; fileName: string; builtBy: 'device' | 'server' } | { kind: 'failed'; message: string };

function failureWords(error: unknown): string {
  if (isApiError(error) && error.message) return error.message;
  if (isApiError(error) && error.code === 'network') return 'The server cannot be reached: connect to the internet and try again.';
  return 'The evidence bundle could not be made. Please try again.';
}

export function EvidenceBundleButton({ request, driver, disabled = false }: EvidenceBundleButtonProps) {
  const { db } = useSyncHandle();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const download = async () => {
    setState({ kind: 'busy' });
    try {
      const made = await makeEvidenceBundle(db, request(), driver);
      downloadBlob(made.fileName, made.blob);
      setState({ kind: 'done', fileName: made.fileName, builtBy: made.builtBy });
    } catch (error) {
      setState({ kind: 'failed', message: failureWords(error) });
    }
  };
  return (
    <div className={styles.bundle}>
      <Button variant="secondary" disabled={disabled || state.kind === 'busy'} onClick={() => void download()}>
        <Download aria-hidden="true" />
        Download evidence bundle
      </Button>
      <p role="status" className={styles.bundleStatus}>
        {state.kind === 'busy'
          ? 'Making the evidence bundle…'
          : state.kind === 'done'
            ? `Downloaded ${state.fileName}: ${state.builtBy === 'device' ? 'made on this device' : 'made by the server, as a photo was not on this device'}.`
            : ''}
      </p>
      {state.kind === 'failed' ? <FormAlert message={state.message} /> : null}
    </div>
  );
}
