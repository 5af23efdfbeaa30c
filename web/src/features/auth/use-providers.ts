import { useEffect, useState } from 'react';
import { fetchProviders, NO_OPTIONAL_PROVIDERS, type Providers } from '@/lib/providers';

/** The optional sign-in methods this server offers; none until it has answered. */
export function useProviders(): Providers {
  const [providers, setProviders] = useState<Providers>(NO_OPTIONAL_PROVIDERS);
  useEffect(() => {
    let live = true;
    void fetchProviders().then((answer) => {
      if (live) setProviders(answer);
    });
    return () => {
      live = false;
    };
  }, []);
  return providers;
}
