// Accessibility: axe-core on the new-game page and on game pages (Tâb and Tihbat, a player's
// and a spectator's), at a phone's size and a desktop's. Any violation of impact serious or
// critical fails.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { api, axeViolations as violations, serverAndBrowser, settled, watch } from './helpers.js';

const env = serverAndBrowser();

const SIZES = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 900 },
};

async function check(name, open) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    const problems = [];
    // The policy forbids inline scripts, which is how axe is injected: only here is it set
    // aside, for the accessibility checks (the other tests run under it).
    const context = await env.browser.newContext({ viewport, bypassCSP: true });
    const page = watch(await context.newPage(), problems);
    await open(page);
    const found = await violations(page);
    await context.close();
    assert.deepEqual(found, [], `${name} (${size})`);
    assert.deepEqual(problems, []);
  }
}

test('the new-game page has no serious accessibility violation', async () => {
  await check('new game', async (page) => {
    await page.goto(`${env.server.url}/`);
    await page.waitForFunction(() => document.querySelectorAll('#ruleset option').length > 0);
    await page.click('#options summary');
  });
});

test('game pages have no serious accessibility violation', async () => {
  const tab = await api(env, 'POST', '/api/games', { ruleset: 'tab(columns=29)', seats: ['human', 'greedy'] });
  const tihbat = await api(env, 'POST', '/api/games', { ruleset: 'tihbat', seats: ['human', 'solver'] });
  for (const created of [tab, tihbat]) {
    await check(`${created.state.name}, the player`, async (page) => {
      await page.goto(`${env.server.url}${created.seats[0].link}`);
      await settled(page);
      // A piece picked: its targets are shown (a Tihbat pit would be sown at once).
      if (created.state.drawing.kind === 'tab') await page.locator('#board [role=button]').first().click();
    });
    await check(`${created.state.name}, a spectator`, async (page) => {
      await page.goto(`${env.server.url}${created.spectator}`);
      await page.waitForFunction(() => document.body.dataset.state === 'waiting');
    });
  }
});
