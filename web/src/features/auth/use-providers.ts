import { useEffect, useState } from 'react';
import { fetchProviders, type Providers } from '@/lib/phone/phone-api';

const none: Providers = { phone: false, oidc: null };

/** The optional sign-in methods this server offers; none until it has answered. */
export function useProviders(): Providers {
  const [providers, setProviders] = useState<Providers>(none);
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
