import { describe, expect, it } from 'vitest';
import { signInNotKeptMessage } from './sign-in-not-kept';

const at = (url: string) => {
  const { protocol, hostname, host } = new URL(url);
  return { protocol, hostname, host };
};

describe('the message for a sign-in the browser did not keep', () => {
  it.each(['http://192.168.1.20:8080', 'http://tracker.lan', 'http://[fd00::2]:8080'])('blames plain http on %s and names the fix', (url) => {
    const text = signInNotKeptMessage('login', at(url));
    expect(text).toContain(`plain http (${new URL(url).host})`);
    expect(text).toContain('https');
    expect(text).toContain('COOKIE_SECURE=false');
    expect(text).not.toContain('account was created');
  });

  it.each(['https://tracker.example.com', 'http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080'])(
    'on %s (where the cookie is allowed) says the browser blocked it',
    (url) => {
      const text = signInNotKeptMessage('guest', at(url));
      expect(text).toContain('refused this site');
      expect(text).not.toContain('plain http');
    },
  );

  it('tells a new account that it exists, so a retry is a login and not a second sign-up', () => {
    expect(signInNotKeptMessage('sign-up', at('http://192.168.1.20:8080'))).toContain(
      'Your account was created: once that is fixed, log in with the same e-mail and password.',
    );
  });
});
