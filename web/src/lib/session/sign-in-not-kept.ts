/**
 * What to tell a driver whose sign-in succeeded on the server but did not stick in the browser
 * (`SessionStore.confirmSignIn` said no), in words they can pass on to whoever runs the server.
 * Almost always the server is opened over plain http by its network address: browsers keep the
 * Secure session cookie only over https or on localhost. Otherwise the browser itself refused
 * the cookie (cookies blocked for the site).
 */

export type SignInKind = 'sign-up' | 'login' | 'guest';

const LOOPBACK_HOST = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/;

export function signInNotKeptMessage(kind: SignInKind, location: Pick<Location, 'protocol' | 'hostname' | 'host'>): string {
  const afterwards =
    kind === 'sign-up' ? ' Your account was created: once that is fixed, log in with the same e-mail and password.' : '';
  if (location.protocol === 'http:' && !LOOPBACK_HOST.test(location.hostname)) {
    return (
      `This browser did not keep the sign-in: the server is on plain http (${location.host}), and browsers drop its secure sign-in cookie there. ` +
      `Please tell whoever runs this server to serve it over https, or to set COOKIE_SECURE=false.${afterwards}`
    );
  }
  return `This browser did not keep the sign-in: it refused this site's cookie. Allow cookies for ${location.host} in the browser's settings, then try again.${afterwards}`;
}
