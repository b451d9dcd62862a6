import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { freePort, startServer, tempDataDir } from './cli.js';
import { startedForTests } from './started-for-tests.js';

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

export interface AppInBrowser {
  base: string;
  browser: Browser;
  page: Page;
  /** The simulator's operator token, for its control routes (`/_sim/...`). */
  simulatorToken(): string;
  /** A call to the simulator's control API; throws, with its answer, unless it answers 2xx. */
  sim(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  /** The first visit's sign-up form filled in (Asha Rao of Acme Foods, default country code 91). */
  createAccount(): Promise<void>;
  /** createAccount, the simulator connected and an API key made, all in the browser: the key. */
  signUp(): Promise<string>;
  /**
   * The same first owner (Asha Rao of Acme Foods, default country code 91) set up through the web
   * app's API with the page's own session, the simulator connected: a call to that API, which throws
   * unless it answers 2xx.
   */
  setUpByApi(): Promise<(method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>>;
  /** An invitation's link accepted as `name` in a browser context of their own: their page, signed in. */
  acceptInvitation(url: string, name: string): Promise<Page>;
  /** The server stopped, `whileStopped` run on its data directory, and started again as it was. */
  restart(whileStopped: (dataDir: string) => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The built server on a fresh embedded database, a real number's Graph calls going to its own
 * simulator (standing in for Meta), and a Chromium page to drive the web app with. `env` adds to
 * the server's environment (SMTP_URL, ...).
 */
export async function appInBrowser(env: Record<string, string> = {}): Promise<AppInBrowser> {
  const data = tempDataDir();
  const port = await freePort();
  const serverEnv = {
    DATA_DIR: data.dir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    GRAPH_API_URL: `http://127.0.0.1:${port}/_sim`,
    CHECK_RESPONSE_SCHEMAS: 'true',
    ...env,
  };
  let server = await startServer([], serverEnv);
  let earlierOutput = '';
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(15_000);
  const base = server.url;
  const simulatorToken = () => readFileSync(join(data.dir, 'simulator.token'), 'utf8');
  const createAccount = async () => {
    await page.goto(base);
    await page.getByLabel('Your name').fill('Asha Rao');
    await page.getByLabel('E-mail').fill('asha@example.com');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByLabel('Workspace name').fill('Acme Foods');
    await page.getByLabel(/Default country code/).fill('91');
    await page.getByRole('button', { name: 'Create account and workspace' }).click();
    await page.getByRole('heading', { name: 'Welcome, Asha Rao' }).waitFor();
  };
  return {
    base,
    browser,
    page,
    simulatorToken,
    async sim(method, path, body) {
      const res = await fetch(`${base}/_sim${path}`, {
        method,
        headers: {
          authorization: `Bearer ${simulatorToken()}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? null : JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${method} /_sim${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    },
    createAccount,
    async signUp() {
      await createAccount();
      await page.locator('nav').getByRole('link', { name: 'Settings', exact: true }).click();
      await page.getByRole('tab', { name: 'Connected number' }).click();
      await page.getByRole('button', { name: 'Connect the simulator' }).click();
      await page.getByText('Built-in WhatsApp simulator').waitFor();
      await page.getByRole('tab', { name: 'Developer' }).click();
      await page.getByLabel('Key name').fill('Tests');
      await page.getByRole('button', { name: 'Create API key' }).click();
      return (await page.getByTestId('new-api-key').locator('code').first().textContent()) ?? '';
    },
    async setUpByApi() {
      let csrf = '1';
      const app = async (method: string, path: string, body?: unknown) => {
        const res = await page.request.fetch(`${base}/api/app${path}`, {
          method,
          headers: { 'x-parley-csrf': csrf },
          ...(body === undefined ? {} : { data: body }),
        });
        if (res.status() >= 300) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
        return (await res.json()) as Record<string, unknown>;
      };
      await app('POST', '/setup', {
        email: 'asha@example.com',
        password: 'a long enough password',
        name: 'Asha Rao',
        workspace_name: 'Acme Foods',
        default_country_code: '91',
      });
      csrf = String((await app('GET', '/session')).csrf_token);
      await app('POST', '/number/simulator');
      return app;
    },
    async acceptInvitation(url, name) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const theirs = await context.newPage();
      theirs.setDefaultTimeout(15_000);
      await theirs.goto(url);
      await theirs.getByLabel('Your name').fill(name);
      await theirs.getByLabel('Choose a password').fill('a long enough password');
      await theirs.getByRole('button', { name: 'Accept invitation' }).click();
      await theirs.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).waitFor();
      return theirs;
    },
    async restart(whileStopped) {
      await server.stop();
      earlierOutput += server.output();
      await whileStopped(data.dir);
      server = await startServer([], serverEnv);
    },
    async stop() {
      await browser.close();
      await server.stop();
      data.remove();
      // A field a response schema dropped (logged as an error by the server) fails the file.
      const dropped = (earlierOutput + server.output()).match(/The response schema of .*/g);
      if (dropped) throw new Error(`Response schemas dropped fields:\n${dropped.join('\n')}`);
    },
  };
}

interface AppInBrowserForTestsOptions {
  /** Added to the server's environment; a function is called when it starts, after earlier hooks. */
  env?: Record<string, string> | (() => Record<string, string>);
  /** The page's size, if not appInBrowser's 1280 × 800. */
  viewport?: { width: number; height: number };
}

/**
 * appInBrowser for the tests of this file (or describe block): started before them (a minute and a
 * half allowed), stopped after them. Sign up, or anything else a file needs first, in its own
 * beforeAll after this call.
 */
export function appInBrowserForTests(options: AppInBrowserForTestsOptions = {}): AppInBrowser {
  return startedForTests(
    async () => {
      const app = await appInBrowser(typeof options.env === 'function' ? options.env() : options.env);
      if (options.viewport) await app.page.setViewportSize(options.viewport);
      return app;
    },
    (app) => app.stop(),
    90_000,
  );
}
