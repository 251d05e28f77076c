// Shared helpers of the end-to-end tests: a `qasab serve` of the release build on a free
// loopback port with a temporary database, headless Chromium, and a watch on the console.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '..', '..');
export const artifacts = join(root, 'e2e', 'artifacts');
const binary = process.env.QASAB_BIN || join(root, 'target', 'release', 'qasab');

/** A free TCP port on the loopback. */
export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

/** A directory for a test's database, removed by `cleanup`. */
export function tempDir() {
  return mkdtempSync(join(tmpdir(), 'qasab-e2e-'));
}

export function cleanup(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Starts `qasab serve` on `port` with the database `db` and any further arguments `extra`;
 * resolves once it listens.
 */
export async function startServer(db, port, extra = []) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const args = ['serve', '--addr', `127.0.0.1:${port}`, '--db', db, '--games-per-minute', '1000', ...extra];
    const proc = spawn(binary, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    const listening = await new Promise((ok) => {
      proc.stderr.on('data', (chunk) => {
        log += chunk;
        if (log.includes('listening on')) ok(true);
      });
      proc.once('exit', () => ok(false));
    });
    if (listening) {
      proc.log = () => log;
      return { proc, port, url: `http://127.0.0.1:${port}` };
    }
    if (!/cannot listen/.test(log)) throw new Error(`qasab serve did not start:\n${log}`);
    await new Promise((ok) => setTimeout(ok, 250));
  }
  throw new Error(`port ${port} stayed busy`);
}

/**
 * Calls the API of the server in `env` with `fetch`; fails the test on an error status.
 * Returns the JSON answer.
 */
export async function api(env, method, path, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${env.server.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Kills the server at once (SIGKILL: no graceful shutdown) and waits for it to end. */
export function killServer(server) {
  return new Promise((ok) => {
    if (server.proc.exitCode !== null) return ok();
    server.proc.once('exit', () => ok());
    server.proc.kill('SIGKILL');
  });
}

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

/**
 * Records every console error or warning and every page error of `page` in `problems`.
 * `allowed(text)` may excuse a message a test expects (a refused token, a server down).
 */
export function watch(page, problems, allowed = () => false) {
  page.on('console', (m) => {
    if ((m.type() === 'error' || m.type() === 'warning') && !allowed(m.text())) {
      problems.push(`${m.type()}: ${m.text()} (${page.url()})`);
    }
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message} (${page.url()})`));
  return page;
}

export async function screenshot(page, name) {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
}

const axePath = createRequire(import.meta.url).resolve('axe-core');

/**
 * The serious and critical violations axe finds on the page as it is now. Axe is injected as
 * an inline script, so the page's context must set the policy aside (`bypassCSP: true`).
 */
export async function axeViolations(page) {
  await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Screenshots at a phone's width and at a desktop's. */
export async function screenshots(page, name) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 740 });
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, `${name}-desktop`);
  if (size) await page.setViewportSize(size);
}

/** Waits until the game page is ready for a decision of this page, or the game is over. */
export async function settled(page, timeout = 60000) {
  await page.waitForFunction(
    () => ['ready', 'over'].includes(document.body.dataset.state),
    null,
    { timeout },
  );
  return page.evaluate(() => document.body.dataset.state);
}

/** The state index the page shows as live. */
export function liveIndex(page) {
  return page.evaluate(() => Number(document.body.dataset.index));
}

/**
 * Makes one decision by clicking: a piece or pit that can move, then its target, then the
 * first choice of a prompt if the server lists several actions for it; or the first button of
 * an action without a square. Waits first until the page offers a decision; a failure says
 * where the page stood (and leaves a screenshot in the artifacts).
 */
export async function clickOneMove(page) {
  const before = await liveIndex(page);
  for (let attempt = 1; ; attempt++) {
    try {
      if ((await settled(page)) === 'over') throw new Error('the game is over: there is no decision to make');
      await clickOnce(page);
      break;
    } catch (e) {
      // A frame from the server can draw the board again between two clicks and take the
      // selection with it; then the target is gone. Start the decision again, unless it was
      // played after all.
      if ((await liveIndex(page)) !== before) break;
      if (attempt >= 3 || e.name !== 'TimeoutError') throw await withPageState(page, e);
      await page.keyboard.press('Escape');
    }
  }
  await page.waitForFunction(
    (i) => Number(document.body.dataset.index) !== i && document.body.dataset.state !== 'busy',
    before,
    { timeout: 60000 },
  );
}

/** The error `e` with the page's state, status and pickable squares added to its message. */
async function withPageState(page, e) {
  const where = await page.evaluate(() => ({
    ...document.body.dataset,
    status: document.getElementById('status')?.textContent,
    instruction: document.getElementById('instruction')?.textContent,
    sources: document.querySelectorAll('#board g.source').length,
    selected: document.querySelectorAll('#board g.selected').length,
    targets: document.querySelectorAll('#board g.target').length,
    buttons: document.querySelectorAll('#buttons button').length,
  })).catch(() => ({}));
  await screenshot(page, `failed-decision-${Date.now()}`).catch(() => {});
  e.message = `${e.message}\npage: ${JSON.stringify(where)}`;
  return e;
}

/** The clicks of one decision (see `clickOneMove`), each given 10 s. */
async function clickOnce(page) {
  const timeout = 10000;
  const source = page.locator('#board g.source').first();
  const picked = page.locator('#board g.selected').first();
  if ((await source.count()) || (await picked.count())) {
    // A piece picked already (a click that was taken before a frame redrew the board) keeps
    // its targets; otherwise pick the first that can move.
    if (!(await picked.count())) await source.click({ timeout });
    if (await page.locator('#board g.pit').count()) {
      // A pit is sown by the click itself, or a prompt asks which action.
    } else {
      const target = page.locator('#board g.target').first();
      if (await target.count()) await target.click({ timeout });
    }
    const choice = page.locator('#prompt:not([hidden]) button.choice').first();
    if (await choice.count()) await choice.click({ timeout });
  } else {
    await page.locator('#buttons button').first().click({ timeout });
  }
}

/** Shows the computer's moves at once rather than step by step. */
export async function atOnce(page) {
  if (await page.locator('#pace').count()) await page.selectOption('#pace', '0');
}

/** Plays this page's seat by clicking until the game is over (the computer's moves at once). */
export async function playToEnd(page, maxDecisions = 3000) {
  await atOnce(page);
  for (let i = 0; i < maxDecisions; i++) {
    if ((await settled(page)) === 'over') return i;
    await clickOneMove(page);
  }
  throw new Error('the game did not end');
}

/**
 * Registers hooks that start a server on a temporary database (with the further arguments
 * `extra`) and a browser before the file's tests and stop both after them. Returns the object
 * that holds them: `server`, `browser`, `dir`, `db` and `port` (a test may replace `server`,
 * e.g. after a restart).
 */
export function serverAndBrowser(extra = []) {
  const env = {};
  before(async () => {
    env.dir = tempDir();
    env.db = join(env.dir, 'games.db');
    env.port = await freePort();
    env.server = await startServer(env.db, env.port, extra);
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    if (env.server) await killServer(env.server);
    if (env.dir) cleanup(env.dir);
  });
  return env;
}
