import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { freePort, type RunningServer, startServer } from './cli.js';

/** Debian's Chromium (`apt-get install chromium`); the browser tests are skipped, saying so, without it. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

if (!hasChromium) {
  console.warn(
    `\n[browser tests] SKIPPED: no Chromium at ${CHROMIUM}. Install it with "apt-get install -y chromium" ` +
      '(or set CHROMIUM_PATH) to run the web app end-to-end tests.\n',
  );
}

export const ARTIFACTS = join(import.meta.dirname, '../../test-artifacts');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Without the background-networking flags Chromium keeps dialling Google, which this network refuses.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** A full-page screenshot in test-artifacts/ (gitignored), for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** The built server on embedded storage, a real number's Graph calls going to its own simulator (standing in for Meta). */
export async function serveWithSimulator(dataDir: string): Promise<RunningServer> {
  const port = await freePort();
  return startServer([], {
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    GRAPH_API_URL: `http://127.0.0.1:${port}/_sim`,
  });
}
