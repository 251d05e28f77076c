// The prompt that asks which move is meant when several legal actions share a piece and a
// target (the survivor of a reduction, a stack's peeled piece, loop or enemy row): the game is
// played through the API until such a turn comes, then the page is asked for it by clicking.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { api as callApi, screenshots, serverAndBrowser, settled, watch } from './helpers.js';

const env = serverAndBrowser();

/** Calls the API of this file's server; fails the test on an error status. */
const api = (method, path, body, token) => callApi(env, method, path, body, token);

/** The groups of legal actions with the same source and target square, largest first. */
function sharedTargets(view) {
  const groups = new Map();
  for (const a of view.legal) {
    const { from, to } = a.detail;
    if (from === undefined || to === undefined) continue;
    const key = `${from}>${to}`;
    groups.set(key, [...(groups.get(key) || []), a]);
  }
  return [...groups.values()].filter((g) => g.length > 1).sort((a, b) => b.length - a.length);
}

/**
 * Plays two-person games of `tab` through the API, each decision the action at a fixed
 * stride through the legal list, until a turn offers several actions from one square to
 * another. Such turns come within a few dozen decisions in practice; the throws are the
 * server's, so the search is bounded rather than pinned.
 */
async function gameWithSharedTarget() {
  for (let game = 0; game < 20; game++) {
    const created = await api('POST', '/api/games', { ruleset: 'tab', seats: ['human', 'human'] });
    const tokens = Object.fromEntries(created.seats.map((s) => [s.seat, s.token]));
    let view = created.state;
    for (let n = 0; n < 400 && view.turn.kind === 'player'; n++) {
      const groups = sharedTargets(view);
      if (groups.length > 0) return { id: created.id, token: tokens[view.turn.seat], view, group: groups[0] };
      const action = view.legal[(n * 7 + game) % view.legal.length].action;
      view = await api('POST', `/api/games/${created.id}/actions`, { action, index: view.index }, tokens[view.turn.seat]);
    }
  }
  throw new Error('no turn with several actions between the same two squares in 20 games');
}

/** Whether the board, and the prompt's first choice, lie inside the viewport. */
async function boardAndChoiceInView(page) {
  return page.evaluate(() => {
    const inside = (el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
    };
    return {
      board: inside(document.querySelector('#board svg')),
      choice: inside(document.querySelector('#prompt button.choice')),
      scrollY: window.scrollY,
    };
  });
}

test('several actions between the same squares are offered in a prompt', async () => {
  const { id, token, view, group } = await gameWithSharedTarget();
  const { from, to } = group[0].detail;
  const problems = [];

  // On a phone the prompt opens below the board: the page may scroll to show it, but never
  // so far that the board leaves the screen.
  const phone = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
  const small = watch(await phone.newPage(), problems);
  await small.goto(`${env.server.url}/play/${id}#token=${token}`);
  assert.equal(await settled(small), 'ready');
  await small.click(`#board [data-square="${from}"]`);
  await small.click(`#board [data-square="${to}"]`);
  await small.locator('#prompt:not([hidden]) button.choice').first().waitFor();
  const seen = await boardAndChoiceInView(small);
  assert.ok(seen.board && seen.choice, `on a phone: ${JSON.stringify(seen)}`);
  await phone.close();

  const context = await env.browser.newContext();
  const page = watch(await context.newPage(), problems);
  await page.goto(`${env.server.url}/play/${id}#token=${token}`);
  assert.equal(await settled(page), 'ready');

  await page.click(`#board [data-square="${from}"]`);
  await page.click(`#board [data-square="${to}"]`);
  const choices = page.locator('#prompt:not([hidden]) button.choice');
  await choices.first().waitFor();
  // Every action between the two squares is offered, by its notation, and nothing else.
  const offered = await choices.evaluateAll((bs) => bs.map((b) => b.dataset.action));
  assert.deepEqual([...offered].sort(), group.map((a) => a.action).sort());
  await screenshots(page, 'prompt');

  // The choice made is the action played.
  const chosen = group[group.length - 1].action;
  await page.click(`#prompt button.choice[data-action="${chosen}"]`);
  await page.waitForFunction((i) => Number(document.body.dataset.index) > i, view.index);
  const after = await api('GET', `/api/games/${id}/actions?from=${view.index}&limit=1`);
  assert.equal(after.actions[0].action, chosen);
  await context.close();
  assert.deepEqual(problems, []);
});
