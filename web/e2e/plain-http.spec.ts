// Issue 27, the LAN trap: the server listens on this machine's network address over plain http
// and Chromium opens it by that address, as a phone on the same Wi-Fi would. The sign-up answers
// 201 but the browser drops the Secure session cookie; the app must say so in words a driver can
// pass on to the operator, and the operator's fix (COOKIE_SECURE=false on a trusted network)
// must then let the same browser in.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, logIn, newPage, signUp, startServer, uniqueEmail, type RunningServer } from './harness';

/** A dummy interface made for this spec when the machine has no address but loopback. */
const DUMMY = { name: 'dt-e2e0', address: '198.18.0.27' };
let madeDummy = false;

/** An IPv4 address of this machine that is not loopback: the machine's own, or one made here. */
function networkAddress(): string {
  const own = Object.values(networkInterfaces())
    .flat()
    .find((nic) => nic && nic.family === 'IPv4' && !nic.internal);
  if (own) return own.address;
  assert.equal(process.getuid?.(), 0, 'this machine has no IPv4 address but loopback, and only root can add one for the test');
  for (const args of [
    ['link', 'add', DUMMY.name, 'type', 'dummy'],
    ['addr', 'add', `${DUMMY.address}/32`, 'dev', DUMMY.name],
    ['link', 'set', DUMMY.name, 'up'],
  ]) {
    const made = spawnSync('ip', args, { encoding: 'utf8' });
    assert.equal(made.status, 0, `ip ${args.join(' ')}: ${made.stderr}`);
  }
  madeDummy = true;
  return DUMMY.address;
}

const run = {} as { address: string; browser: Browser; servers: RunningServer[] };

before(async () => {
  run.address = networkAddress();
  run.browser = await launchBrowser();
  run.servers = [];
});

after(async () => {
  await run.browser?.close();
  for (const server of run.servers) await server.stop();
  if (madeDummy) spawnSync('ip', ['link', 'del', DUMMY.name]);
});

async function serverOnTheNetwork(env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer({ LISTEN: `${run.address}:0`, ...env });
  run.servers.push(server);
  assert.match(server.url, new RegExp(`^http://${run.address.replaceAll('.', '\\.')}:\\d+$`));
  return server;
}

describe('a server opened over plain http by its network address', () => {
  it('says why the sign-in did not stick, and the retry is a login, not a second sign-up', async () => {
    const server = await serverOnTheNetwork();
    const { context, page } = await newPage(run.browser, server);
    const email = uniqueEmail('lan');

    await signUp(page, email);
    const alert = page.getByRole('alert');
    await alert.getByText('This browser did not keep the sign-in').waitFor();
    const text = await alert.innerText();
    assert.match(text, new RegExp(`plain http \\(${new URL(server.url).host.replaceAll('.', '\\.')}\\)`));
    assert.match(text, /serve it over https, or to set COOKIE_SECURE=false/);
    assert.match(text, /Your account was created: once that is fixed, log in with the same e-mail and password\./);
    assert.equal(new URL(page.url()).pathname, '/login');
    // The account does exist on the server: the message told the truth.
    assert.match(server.admin('users', 'list'), new RegExp(email.replaceAll('.', '\\.')));

    await logIn(page, email, 'van-route-42');
    await alert.getByText(/serve it over https, or to set COOKIE_SECURE=false\.$/).waitFor();
    assert.equal(await alert.getByText('This email is already registered').count(), 0);
    await context.close();
  });

  it("lets the same browser in once the operator sets COOKIE_SECURE=false", async () => {
    const server = await serverOnTheNetwork({ COOKIE_SECURE: 'false' });
    const { context, page } = await newPage(run.browser, server);
    await signUp(page, uniqueEmail('lan-fixed'));
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 20_000 });
    assert.equal(await page.getByText('This browser did not keep the sign-in').count(), 0);
    await context.close();
  });
});
