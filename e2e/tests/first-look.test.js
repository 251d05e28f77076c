// What a newcomer sees first, on a phone (390×844) and a desktop: the new-game page and a game
// page fit the screen's width (nothing scrolls the page sideways), the new-game page says who
// begins as the ruleset does (an opening of throws in Lane's Tâb, a seat elsewhere) and names
// the computer player in words with its spec beside it, and the game page names its players,
// each side's pieces, the last throw once, what a hint's values mean, and the keys of its own
// board (pits for Tihbat).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { api, screenshot, serverAndBrowser, settled, watch } from './helpers.js';

const env = serverAndBrowser();

const SIZES = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 900 },
};

/** How wide the page is against its window, and the element that sticks out furthest. */
function widths(page) {
  return page.evaluate(() => {
    let widest = null;
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width && (!widest || r.right > widest.right)) widest = { right: r.right, what: `${el.tagName}#${el.id}.${el.className}` };
    }
    return { page: document.documentElement.scrollWidth, window: window.innerWidth, widest };
  });
}

async function openSetup(context, problems) {
  const page = watch(await context.newPage(), problems);
  await page.goto(`${env.server.url}/`);
  await page.waitForFunction(() => document.querySelectorAll('#ruleset option').length > 0);
  await page.waitForFunction(() => document.getElementById('begins').textContent !== '');
  return page;
}

/** Sets a ruleset's option on the new-game page (the options open) and waits for the words. */
async function setOption(page, key, value) {
  if (!(await page.locator('#options').evaluate((d) => d.open))) await page.click('#options summary');
  const before = await page.locator('#begins').textContent();
  await page.selectOption(`#opt-${key}`, value);
  await page.waitForFunction((b) => document.getElementById('begins').textContent !== b, before);
}

test('the new-game page does not scroll sideways, with every game and its strongest player', async () => {
  const rulesets = await api(env, 'GET', '/api/rulesets');
  for (const [size, viewport] of Object.entries(SIZES)) {
    const problems = [];
    const context = await env.browser.newContext({ viewport });
    const page = await openSetup(context, problems);
    for (const r of rulesets) {
      await page.selectOption('#ruleset', r.name);
      await page.waitForFunction(() => document.getElementById('computer-spec').textContent !== '');
      const w = await widths(page);
      assert.ok(w.page <= w.window, `${r.name} at ${size}: ${JSON.stringify(w)}`);
    }
    await page.selectOption('#ruleset', 'tab');
    await screenshot(page, `setup-${size}`);
    await context.close();
    assert.deepEqual(problems, [], size);
  }
});

test('the new-game page says who begins as the ruleset does', async () => {
  const problems = [];
  const context = await env.browser.newContext({ viewport: SIZES.phone });
  const page = await openSetup(context, problems);
  const seats = () => page.locator('#my-seat option').allTextContents();
  const begins = () => page.locator('#begins').textContent();

  // Lane's Tâb: whoever first throws a tab begins; no seat "moves first".
  await page.selectOption('#ruleset', 'tab');
  await page.waitForFunction(() => /tâb/.test(document.getElementById('begins').textContent));
  assert.equal(await begins(), 'Who begins: whoever first throws a tâb (a throw of 1) moves first; until then the players throw in turn, white first.');
  assert.deepEqual(await seats(), ['white', 'black']);
  // Ordinary turns from the start: White.
  await setOption(page, 'opening', 'normal');
  assert.equal(await begins(), 'Who begins: white moves first.');
  assert.deepEqual(await seats(), ['white (moves first)', 'black']);

  // Hyde's game has no opening; its option brings one.
  await page.selectOption('#ruleset', 'tab-hyde');
  await page.waitForFunction(() => document.getElementById('begins').textContent === 'Who begins: white moves first.');
  await setOption(page, 'opening', 'until-tab');
  assert.match(await begins(), /whoever first throws a tâb/);

  // Tihbat: South, or North when the option says so.
  await page.selectOption('#ruleset', 'tihbat');
  await page.waitForFunction(() => document.getElementById('begins').textContent === 'Who begins: south moves first.');
  assert.deepEqual(await seats(), ['south (moves first)', 'north']);
  await setOption(page, 'first', 'north');
  assert.equal(await begins(), 'Who begins: north moves first.');
  assert.deepEqual(await seats(), ['south', 'north (moves first)']);
  await context.close();
  assert.deepEqual(problems, []);
});

test('the computer player is named in words, its spec beside it', async () => {
  const rulesets = await api(env, 'GET', '/api/rulesets');
  const tab = rulesets.find((r) => r.name === 'tab');
  const strongest = tab.default_seats[1];
  assert.match(strongest, /\(/, 'the strongest player of tab is a whole spec');
  const problems = [];
  const context = await env.browser.newContext({ viewport: SIZES.desktop });
  const page = await openSetup(context, problems);
  await page.selectOption('#ruleset', 'tab');
  const chosen = page.locator('#computer-player option:checked');
  await page.waitForFunction((s) => document.getElementById('computer-spec').textContent.includes(s), strongest);
  assert.equal(await chosen.textContent(), 'strongest (the default)');
  assert.equal(
    await page.locator('#computer-spec').textContent(),
    `The computer plays ${strongest}, the strongest player for these rules.`,
  );
  await page.selectOption('#computer-player', 'mcts');
  await page.selectOption('#computer-level', '3');
  assert.equal(await page.locator('#computer-spec').textContent(), 'The computer plays mcts(level=3).');

  // The game page: "Computer — strongest", the spec on a details line and on hover.
  const created = await api(env, 'POST', '/api/games', { ruleset: 'tab', seats: ['human', null] });
  await page.goto(`${env.server.url}${created.seats[0].link}`);
  await settled(page);
  const info = await page.evaluate(() => Object.fromEntries(
    [...document.querySelectorAll('#info dt')].map((dt) => [dt.textContent, {
      text: dt.nextElementSibling.firstChild.textContent,
      details: dt.nextElementSibling.querySelector('.details')?.textContent ?? null,
      title: dt.nextElementSibling.title,
    }]),
  ));
  assert.deepEqual(info.white, { text: 'you', details: null, title: '' });
  assert.deepEqual(info.black, { text: 'Computer — strongest', details: strongest, title: strongest });

  // Each side's own pieces on one line, and what the other side took of them.
  const view = await api(env, 'GET', `/api/games/${created.id}`);
  const d = view.drawing;
  const pieces = (i) => [
    `${d.on_board[i]} on the board${d.unconverted[i] ? ` (${d.unconverted[i]} not yet converted)` : ''}`,
    `${view.scores[1 - i]} taken by ${view.seats[1 - i].seat}`,
    ...(d.removed[i] ? [`${d.removed[i]} lost to reductions`] : []),
  ].join('; ');
  assert.equal(info["white's pieces"].text, pieces(0));
  assert.equal(info["black's pieces"].text, pieces(1));
  // White's own count and Black's captures, which together make White's nine.
  const white = /^(\d+) on the board \(\d+ not yet converted\); (\d+) taken by black$/.exec(info["white's pieces"].text);
  assert.ok(white, info["white's pieces"].text);
  assert.equal(Number(white[1]) + Number(white[2]), 9);
  assert.ok(!Object.keys(info).some((k) => /captured/.test(k)), JSON.stringify(info));
  // The last throw, said once.
  const caption = await page.locator('.throw-caption').textContent();
  assert.match(caption, /^Last throw: white throws \d \(\w+\)/);
  const named = /throws (\d \(\w+\))/.exec(caption)[1];
  assert.equal(caption.split(named).length, 2, caption);
  await context.close();
  assert.deepEqual(problems, []);
});

test('a hint says what its values mean', async () => {
  for (const [ruleset, scale] of [
    ['tihbat', /exact: your captures still to come minus your opponent's, with perfect play/],
    ['tab(columns=7)', /estimated result for you, from −1 \(a loss\) to \+1 \(a win\)/],
  ]) {
    const problems = [];
    const context = await env.browser.newContext({ viewport: SIZES.phone });
    const page = watch(await context.newPage(), problems);
    const created = await api(env, 'POST', '/api/games', { ruleset, seats: ['human', 'greedy'] });
    await page.goto(`${env.server.url}${created.seats[0].link}`);
    await settled(page);
    // A computer named by its whole spec has no line repeating it.
    const second = page.locator('#info dd').nth(2);
    assert.equal(await second.textContent(), 'Computer — greedy');
    // The keyboard's help speaks of the board's own things: pits, or pieces and squares.
    const keys = await page.locator('#board-help').textContent();
    if (created.state.drawing.kind === 'tihbat') assert.match(keys, /Tab to a pit, .*Enter to sow it/);
    else assert.match(keys, /Tab to a piece, .*among its squares/);
    await page.click('#hint');
    await page.waitForSelector('#hint-box:not([hidden]) #hints li', { timeout: 60000 });
    const title = await page.locator('#hint-title').textContent();
    assert.match(title, /^Your moves ranked by the strongest computer player, best first\./, title);
    assert.match(title, scale, title);
    // Each value with its sign: +, a true minus, or none for 0.
    for (const move of await page.locator('#hints button').allTextContents()) {
      assert.match(move, /\(([+\u2212]?\d+(\.\d+)?)\)$/, move);
      assert.doesNotMatch(move, /\(-/, move);
    }
    await context.close();
    assert.deepEqual(problems, [], ruleset);
  }
});

test('game pages do not scroll sideways on a phone', async () => {
  for (const [ruleset, seats] of [
    ['tab', ['human', null]],
    ['tab-hyde(columns=29)', ['human', null]],
    ['tihbat', ['human', null]],
    ['tab(columns=29)', ['human', 'human']],
  ]) {
    const problems = [];
    const context = await env.browser.newContext({ viewport: SIZES.phone });
    const page = watch(await context.newPage(), problems);
    const created = await api(env, 'POST', '/api/games', { ruleset, seats });
    await page.goto(`${env.server.url}${created.seats[0].link}`);
    // The layout is what is measured: a drawn game page, whoever is to act (waiting for the
    // computer's whole turn on a 29-column board would measure the search, not the page).
    await page.waitForFunction(
      () => ['ready', 'over', 'waiting'].includes(document.body.dataset.state),
      null,
      { timeout: 60000 },
    );
    const w = await widths(page);
    assert.ok(w.page <= w.window, `${ruleset}: ${JSON.stringify(w)}`);
    await screenshot(page, `game-phone-${ruleset.replace(/\W+/g, '-')}`);
    await context.close();
    assert.deepEqual(problems, [], ruleset);
  }
});
