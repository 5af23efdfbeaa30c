import { useEffect, useState } from 'react';

/**
 * A URL an <img> can show a Blob with, made while the component shows it and revoked after
 * (object URLs hold the bytes in memory until revoked). Null until made, or without a blob.
 */
export function useObjectUrl(blob: Blob | null | undefined): string | null {
  const [made, setMade] = useState<{ blob: Blob; url: string } | null>(null);
  useEffect(() => {
    if (!blob) return;
    const url = URL.createObjectURL(blob);
    // The URL lives exactly as long as this effect (revoked in its cleanup), so it is made here.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setMade({ blob, url });
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  return made && made.blob === blob ? made.url : null;
}
