/**
 * How long the invisible phone captcha takes to solve in Chromium at its default difficulty,
 * at full speed and at 4x CPU slowdown (standing in for a modest phone), and how long
 * challenge + solve + send takes end to end. Prints figures; asserts nothing.
 *
 *   npx tsx bench/captcha-solve.ts     (after `make release`)
 */
import { launchBrowser, newPage, releaseBinary, startServer } from '../e2e/harness';
import { ms, report } from './report';

const RUNS = 5;

async function main() {
  const server = await startServer({ SMS_SENDER: 'log' }, releaseBinary);
  const browser = await launchBrowser();
  try {
    const { context, page } = await newPage(browser, server);
    await page.goto('/login');
    // The same loop as altcha-lib's solveChallenge: one Web Crypto digest per number tried.
    // A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
    const solve = `(async () => {
      const results = [];
      for (let i = 0; i < ${RUNS}; i += 1) {
        const challenge = await (await fetch('/api/v1/auth/phone/challenge')).json();
        const started = performance.now();
        for (let n = 0; n <= challenge.maxnumber; n += 1) {
          const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(challenge.salt + n));
          const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
          if (hex === challenge.challenge) break;
        }
        results.push(performance.now() - started);
      }
      return results;
    })()`;
    const plain = (await page.evaluate(solve)) as number[];
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const slowed = (await page.evaluate(solve)) as number[];
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

    await page.getByRole('button', { name: 'Sign in with Phone' }).click();
    await page.getByLabel('Phone number', { exact: true }).fill('+447700900123');
    const started = Date.now();
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByLabel('Verification code').waitFor();
    const sent = Date.now() - started;

    report(`phone captcha at its default difficulty (Chromium, release binary, ${RUNS} runs each)`);
    report(`  solve, full speed:      ${plain.map(ms).join(', ')}`);
    report(`  solve, 4x CPU slowdown: ${slowed.map(ms).join(', ')}`);
    report(`  challenge + solve + send, from the click to the code step: ${ms(sent)}`);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}

void main();
