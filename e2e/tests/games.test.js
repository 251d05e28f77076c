// Whole games against the computer, played by clicking: Tihbat against the exact solver,
// and Tâb on a small board against the greedy player.

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import {
  artifacts, clickOneMove, liveIndex, playToEnd, screenshots, serverAndBrowser, settled, watch,
} from './helpers.js';

const env = serverAndBrowser();

/** Chooses the game and the opponent on the new-game page and starts. */
async function newGame(page, ruleset, options, player) {
  await page.goto(`${env.server.url}/`);
  await page.selectOption('#ruleset', ruleset);
  await page.click('#options summary');
  for (const [key, value] of Object.entries(options)) {
    const input = page.locator(`#opt-${key}`);
    if ((await input.evaluate((e) => e.tagName)) === 'SELECT') await input.selectOption(value);
    else await input.fill(value);
  }
  await page.check('#mode-computer');
  await page.selectOption('#computer-player', player);
  await page.click('#start');
  await page.waitForURL(/\/play\/[0-9a-f]+#token=/);
}

test("the levels offered are the chosen player's own, from the API", async () => {
  const problems = [];
  const context = await env.browser.newContext();
  const page = watch(await context.newPage(), problems);
  await page.goto(`${env.server.url}/`);
  await page.selectOption('#ruleset', 'tihbat');
  await page.check('#mode-computer');
  const levels = () => page.locator('#computer-level option').evaluateAll((os) => os.map((o) => o.value));
  const players = await (await page.request.get(`${env.server.url}/api/players`)).json();
  const mcts = players.find((p) => p.name === 'mcts').options.find((o) => o.key === 'level');
  assert.equal(mcts.values, '1..=5');
  await page.selectOption('#computer-player', 'mcts');
  assert.deepEqual(await levels(), ['default', '1', '2', '3', '4', '5']);
  assert.equal(await page.locator('#computer-level').isDisabled(), false);
  await page.selectOption('#computer-player', 'random');
  assert.equal(await page.locator('#computer-level').isDisabled(), true);
  // The chosen level goes into the computer's spec.
  await page.selectOption('#computer-player', 'mcts');
  await page.selectOption('#computer-level', '2');
  await page.click('#start');
  await page.waitForURL(/\/play\/[0-9a-f]+#token=/);
  const id = new URL(page.url()).pathname.split('/').pop();
  const view = await (await page.request.get(`${env.server.url}/api/games/${id}`)).json();
  assert.ok(view.seats.some((s) => s.player === 'mcts(level=2)'), JSON.stringify(view.seats));
  await context.close();
  assert.deepEqual(problems, []);
});

test("the default opponent is the API's strongest player; a variant plays its plain player", async () => {
  const problems = [];
  const context = await env.browser.newContext();
  const page = watch(await context.newPage(), problems);
  const rulesets = await (await page.request.get(`${env.server.url}/api/rulesets`)).json();
  await page.goto(`${env.server.url}/`);
  await page.check('#mode-computer');
  for (const r of rulesets) {
    await page.selectOption('#ruleset', r.name);
    assert.equal(await page.locator('#computer-player').inputValue(), r.default_seats[1], r.name);
  }
  // A preset whose strongest player is a whole spec: on a variant of it the game gets the
  // spec's plain player, as the server's own default for that variant is.
  const spec = rulesets.find((r) => r.default_seats[1].includes('('));
  if (spec) {
    await page.selectOption('#ruleset', spec.name);
    await page.click('#options summary');
    await page.locator('#opt-p_white').fill('1/3');
    await page.click('#start');
    await page.waitForURL(/\/play\/[0-9a-f]+#token=/);
    const id = new URL(page.url()).pathname.split('/').pop();
    const view = await (await page.request.get(`${env.server.url}/api/games/${id}`)).json();
    const plain = spec.default_seats[1].split('(')[0];
    assert.ok(view.seats.some((s) => s.player === plain), JSON.stringify(view.seats));
  }
  await context.close();
  assert.deepEqual(problems, []);
});

test('tihbat against the solver, clicked to the end', async () => {
  const problems = [];
  const context = await env.browser.newContext({ acceptDownloads: true });
  const page = watch(await context.newPage(), problems);
  await page.goto(`${env.server.url}/`);
  await screenshots(page, 'new-game');
  // Every option of the ruleset is offered, with its help.
  await page.selectOption('#ruleset', 'tihbat');
  await page.click('#options summary');
  assert.ok(await page.locator('#opt-seeds').isVisible());
  assert.match(await page.locator('#opt-seeds').getAttribute('title'), /counters/);
  // The rules of the chosen game.
  await page.click('#nav-rules');
  assert.match(await page.locator('#rules-text').textContent(), /Tihbat/);
  await page.click('#rules-close');

  await newGame(page, 'tihbat', { seeds: '4' }, 'solver');
  await settled(page);
  await screenshots(page, 'tihbat-start');
  assert.match(await page.locator('#role').textContent(), /You play south/);
  // The hint button is there exactly when the server lists its hint route.
  const doc = await (await page.request.get(`${env.server.url}/api/openapi.json`)).json();
  if (doc.paths['/api/games/{id}/hint']) {
    await page.click('#hint');
    await page.waitForSelector('#hints:not([hidden]) li');
  } else {
    assert.equal(await page.locator('#hint').isVisible(), false);
  }
  // A move from the keyboard: the list of legal actions, then Play.
  const first = await liveIndex(page);
  await page.focus('#action-select');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.waitForFunction((i) => Number(document.body.dataset.index) > i, first);
  const decisions = await playToEnd(page);
  assert.ok(decisions > 0);
  const result = page.locator('#result');
  assert.equal(await result.isVisible(), true);
  assert.match(await result.textContent(), /wins|No winner/);
  await screenshots(page, 'tihbat-over');

  // The record downloads, opens as a new game and steps with the arrow keys.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  const recordPath = join(artifacts, 'tihbat-record.txt');
  await download.saveAs(recordPath);
  const record = readFileSync(recordPath, 'utf8');
  assert.match(record, /^qasab-record 1/);
  const last = await page.evaluate(() => Number(document.body.dataset.index));

  const viewer = watch(await context.newPage(), problems);
  await viewer.goto(`${env.server.url}/`);
  const file = join(artifacts, 'opened-record.txt');
  writeFileSync(file, record);
  await viewer.setInputFiles('#record-file', file);
  await viewer.waitForURL(/step=0/);
  await viewer.waitForFunction(() => document.body.dataset.shown === '0');
  assert.equal(await viewer.evaluate(() => Number(document.body.dataset.index)), last);
  await viewer.keyboard.press('ArrowRight');
  await viewer.waitForFunction(() => document.body.dataset.shown === '1');
  await viewer.keyboard.press('ArrowRight');
  await viewer.waitForFunction(() => document.body.dataset.shown === '2');
  await viewer.keyboard.press('ArrowLeft');
  await viewer.waitForFunction(() => document.body.dataset.shown === '1');
  await viewer.click('#step-last');
  await viewer.waitForFunction((i) => document.body.dataset.shown === String(i), last);
  await viewer.click('#step-first');
  await viewer.waitForFunction(() => document.body.dataset.shown === '0');
  // Clicking an entry of the move list shows the position after it.
  await viewer.click('#moves li:nth-child(3) button');
  await viewer.waitForFunction(() => document.body.dataset.shown === '3');
  await screenshots(viewer, 'record-step');
  await context.close();
  assert.deepEqual(problems, []);
});

test('tab on a small board against the greedy player, clicked to the end', async () => {
  const problems = [];
  const context = await env.browser.newContext();
  const page = watch(await context.newPage(), problems);
  await newGame(page, 'tab', { columns: '7', pieces: '3' }, 'greedy');
  await settled(page);
  await screenshots(page, 'tab-start');
  assert.match(await page.locator('#game-title').textContent(), /Tab/);
  // The sticks of the last throw are drawn, with the throw's name.
  assert.match(await page.locator('.throw-caption').textContent(), /throws/);
  // Undo against the computer takes back to this seat's last decision.
  await clickOneMove(page);
  await settled(page);
  const played = await liveIndex(page);
  await page.click('#undo');
  await page.waitForFunction((i) => Number(document.body.dataset.index) < i && document.body.dataset.state === 'ready', played);
  const decisions = await playToEnd(page, 4000);
  assert.ok(decisions > 0, 'a person decided at least once');
  await screenshots(page, 'tab-over');
  const result = await page.locator('#result').textContent();
  assert.match(result, /wins|No winner/);
  // The person plays white: the result says whether that is a win or a loss.
  const winner = /^(\w+) wins/.exec(result);
  if (winner) assert.match(result, winner[1] === 'white' ? / — you win!/ : / — you lose/, result);
  await context.close();
  assert.deepEqual(problems, []);
});
