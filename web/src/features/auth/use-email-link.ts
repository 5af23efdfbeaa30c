import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { isApiError } from '@/lib/api';
import { checkLink, tokenFrom, type EmailLink } from './email-links';

export type LinkState =
  | { status: 'checking' }
  | { status: 'ready'; token: string; link: EmailLink }
  /** No token, an unknown, used or expired one, or a link of the other kind. */
  | { status: 'expired' }
  /** The server could not be asked (offline): the link may still work. */
  | { status: 'unreachable' };

/** The link this page was opened with (its token is the URL's fragment), as the server sees it. */
export function useEmailLink(kind: EmailLink['kind']): LinkState {
  const { hash } = useLocation();
  const token = tokenFrom(hash);
  // The answer for one token: a new token is being checked until its own answer arrives.
  const [answer, setAnswer] = useState<{ token: string; state: LinkState } | null>(null);
  useEffect(() => {
    if (!token) return;
    let live = true;
    const settle = (state: LinkState) => {
      if (live) setAnswer({ token, state });
    };
    checkLink(token).then(
      (link) => settle(link.kind === kind ? { status: 'ready', token, link } : { status: 'expired' }),
      (error: unknown) => {
        const unreachable = isApiError(error) && (error.code === 'network' || error.status >= 500);
        settle(unreachable ? { status: 'unreachable' } : { status: 'expired' });
      },
    );
    return () => {
      live = false;
    };
  }, [token, kind]);
  if (!token) return { status: 'expired' };
  return answer?.token === token ? answer.state : { status: 'checking' };
}
