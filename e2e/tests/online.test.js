// Two people online through their seat links, a spectator and a forged link; a page reload
// and a server restart in the middle of a game.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import {
  clickOneMove, killServer, liveIndex, screenshots, serverAndBrowser, settled, startServer, watch,
} from './helpers.js';

const env = serverAndBrowser();

/** The page whose turn it is once one is ready (the other shows the last move), and the other. */
async function whoseTurn(a, b) {
  for (let tries = 0; tries < 600; tries++) {
    for (const [p, q] of [[a, b], [b, a]]) {
      if ((await p.evaluate(() => document.body.dataset.state)) === 'ready') return [p, q];
    }
    await new Promise((ok) => setTimeout(ok, 50));
  }
  throw new Error('neither page is ready to move');
}

const atIndex = (page, i) =>
  page.waitForFunction((n) => Number(document.body.dataset.index) >= n, i, { timeout: 15000 });

test('two people online through their links, watched by a spectator', async () => {
  const problems = [];
  // The forged link's page expects exactly one refusal.
  const refused = (text) => /status of 403/.test(text);
  const host = watch(await (await env.browser.newContext()).newPage(), problems);
  await host.goto(`${env.server.url}/`);
  await host.selectOption('#ruleset', 'tihbat');
  await host.click('#options summary');
  await host.fill('#opt-seeds', '3');
  await host.check('#mode-friend');
  await host.click('#start');
  await host.waitForSelector('#links:not([hidden])');
  await screenshots(host, 'friend-links');
  const link = (seat) => host.locator(`#link-list a[data-seat="${seat}"]`).getAttribute('href');
  const south = await link('south');
  const north = await link('north');
  const spectator = await link('spectator');
  assert.match(south, /\/play\/[0-9a-f]+#token=[0-9a-f]{64}$/);
  assert.doesNotMatch(spectator, /token/);

  const a = watch(await (await env.browser.newContext()).newPage(), problems);
  const b = watch(await (await env.browser.newContext()).newPage(), problems);
  const watcher = watch(await (await env.browser.newContext()).newPage(), problems);
  const forgedProblems = [];
  const forged = watch(await (await env.browser.newContext()).newPage(), forgedProblems, refused);
  await a.goto(south);
  await b.goto(north);
  await watcher.goto(spectator);
  assert.match(await a.locator('#role').textContent(), /You play south/);
  assert.match(await b.locator('#role').textContent(), /You play north/);
  assert.match(await watcher.locator('#role').textContent(), /watching/);

  // A forged token: the page says it was refused and offers nothing to play.
  await forged.goto(south.replace(/token=[0-9a-f]+/, `token=${'0'.repeat(64)}`));
  await forged.waitForSelector('#message:not([hidden])');
  assert.match(await forged.locator('#message').textContent(), /refused/);
  assert.equal(await forged.locator('#board g[role=button]').count(), 0);
  await screenshots(forged, 'forged-link');

  for (let move = 0; move < 6; move++) {
    const state = await a.evaluate(() => document.body.dataset.state);
    if (state === 'over') break;
    const [mover, other] = await whoseTurn(a, b);
    await clickOneMove(mover);
    const i = await liveIndex(mover);
    // The move appears on the other seat's page and on the spectator's, without a reload.
    await atIndex(other, i);
    await atIndex(watcher, i);
    // The spectator can never move: no pickable square, no action list, no buttons.
    assert.equal(await watcher.locator('#board g[role=button]').count(), 0);
    assert.equal(await watcher.locator('#buttons button').count(), 0);
    assert.equal(await watcher.locator('.keyboard').isVisible(), false);
    assert.notEqual(await watcher.evaluate(() => document.body.dataset.state), 'ready');
  }
  await screenshots(watcher, 'spectator');
  assert.deepEqual(problems, []);
  assert.equal(forgedProblems.length, 0, forgedProblems.join('\n'));
});

test('a reload and a server restart mid-game both resume the game', async () => {
  const problems = [];
  let serverDown = false;
  // While the server is down, the page's polls fail; nothing else may.
  const downtime = (text) => serverDown && /ERR_CONNECTION_REFUSED|WebSocket connection/.test(text);
  const context = await env.browser.newContext();
  const page = watch(await context.newPage(), problems, downtime);
  await page.goto(`${env.server.url}/`);
  await page.selectOption('#ruleset', 'tab');
  await page.click('#options summary');
  await page.fill('#opt-columns', '7');
  await page.check('#mode-computer');
  await page.selectOption('#computer-player', 'greedy');
  await page.click('#start');
  await page.waitForURL(/#token=/);
  await settled(page);
  await clickOneMove(page);
  await settled(page);
  const link = page.url();

  // A reload: the same game, the same position, still this seat's to play.
  const before = await liveIndex(page);
  await page.reload();
  await settled(page);
  assert.equal(await liveIndex(page), before);
  assert.equal(page.url(), link);
  await clickOneMove(page);
  await settled(page);

  // A restart: the server is killed and started again on the same database.
  const index = await liveIndex(page);
  const moves = await page.locator('#moves li').count();
  serverDown = true;
  await killServer(env.server);
  await page.waitForSelector('#message:not([hidden])', { timeout: 10000 });
  env.server = await startServer(env.db, env.port);
  await page.waitForSelector('#message', { state: 'hidden', timeout: 15000 });
  serverDown = false;
  assert.equal(await liveIndex(page), index);
  assert.equal(await page.locator('#moves li').count(), moves);
  if ((await settled(page)) === 'ready') {
    await clickOneMove(page);
    assert.ok((await liveIndex(page)) > index);
  }
  await screenshots(page, 'tab-after-restart');
  await context.close();
  assert.deepEqual(problems, []);
});
