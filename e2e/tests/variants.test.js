// The Variants view: the studies of the rules' variants (here the fixture of the server's
// tests, served with `qasab serve --variants DIR`), each with its command, its charts and the
// table of its variants, on a phone and a desktop; no serious accessibility violation; and one
// click on a row's Play starts a game of that row's ruleset against the default opponent.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { api, axeViolations, root, screenshot, serverAndBrowser, settled, watch } from './helpers.js';

const fixture = join(root, 'crates', 'server', 'tests', 'data', 'variants');
const env = serverAndBrowser(['--variants', fixture]);
// The studies compiled into the binary (docs/variants): long labels, 30 and more variants, tall
// charts and wide heat maps.
const published = serverAndBrowser();

const SIZES = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 900 },
};

/** Opens the Variants view from the navigation of the new-game page; waits for its tables. */
async function openVariants(page, server = env.server) {
  await page.goto(`${server.url}/`);
  await page.waitForFunction(() => document.querySelectorAll('#ruleset option').length > 0);
  await page.click('#nav-variants');
  await page.waitForURL(/\/variants$/);
  await page.waitForFunction(() => document.getElementById('variants').dataset.state === 'ready');
}

/** The texts of a study's table: its column headers and, per row, its cells. */
function tableOf(page, id) {
  return page.evaluate((studyId) => {
    const table = document.querySelector(`#study-${studyId} table`);
    // The text shown, but for the column's name that a cell repeats when the table is laid
    // out as cards.
    const text = (el) => [...el.childNodes]
      .filter((n) => !(n.classList && n.classList.contains('cell-label')))
      .map((n) => (n.nodeType === Node.TEXT_NODE ? n.textContent : n.innerText))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    return {
      headers: [...table.querySelectorAll('thead th')].map((th) => ({ text: text(th), scope: th.scope })),
      rows: [...table.querySelectorAll('tbody tr')].map((tr) => ({
        ruleset: tr.dataset.ruleset,
        rowHeader: tr.querySelector('th').scope,
        cells: [...tr.children].map(text),
      })),
    };
  }, id);
}

test('the Variants view shows every study with its command, charts and table', async () => {
  for (const [size, viewport] of Object.entries(SIZES)) {
    const problems = [];
    const context = await env.browser.newContext({ viewport });
    const page = watch(await context.newPage(), problems);
    await openVariants(page);
    assert.equal(await page.title(), 'Qasab — Variants');
    assert.equal(await page.locator('#nav-variants').getAttribute('aria-current'), 'page');
    assert.equal(await page.locator('#variants-back').getAttribute('href'), '/');
    assert.equal(await page.locator('#setup').isVisible(), false);

    const studies = await page.locator('article.study h2').allTextContents();
    assert.deepEqual(studies, [
      "Lane's Tâb: when a moving stack is reduced",
      'Tihbat: the value of the start with few counters',
    ]);
    assert.match(await page.locator('#study-tab-reduction .summary').textContent(), /greedy players/);
    assert.match(
      await page.locator('#study-tab-reduction .command code').textContent(),
      /^qasab study tab --vary reduction=square-visited,off,square-landed /,
    );

    // The charts: loaded, the caption as text alternative and as figure caption.
    const charts = await page.evaluate(() => [...document.querySelectorAll('figure.chart')].map((f) => {
      const img = f.querySelector('img');
      return { src: img.getAttribute('src'), alt: img.alt, caption: f.querySelector('figcaption').textContent };
    }));
    assert.deepEqual(charts.map((c) => c.src), [
      '/variants/tab-reduction/win-rates.svg',
      '/variants/tab-reduction/lengths.svg',
      '/variants/tihbat-seeds/solver.svg',
    ]);
    for (const c of charts) assert.equal(c.alt, c.caption);
    for (const img of await page.locator('figure.chart img').all()) {
      await img.scrollIntoViewIfNeeded();
      await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await img.elementHandle());
    }

    // The Tâb study: seat win rates, the measures with their intervals, the skill gap where
    // it was measured; no solver column.
    const tab = await tableOf(page, 'tab-reduction');
    // One column names the variant: its label, and its ruleset string where that differs.
    assert.deepEqual(tab.headers.map((h) => h.text), [
      'Variant', 'Play', 'Games', 'white wins', 'black wins', 'Balance', 'Completion',
      'Turns', 'Decisions', 'Skill gap',
    ]);
    assert.ok(tab.headers.every((h) => h.scope === 'col'));
    assert.deepEqual(tab.rows.map((r) => r.ruleset), ['tab', 'tab(reduction=off)', 'tab(reduction=square-landed)']);
    assert.ok(tab.rows.every((r) => r.rowHeader === 'row'));
    const off = tab.rows[1].cells;
    assert.equal(off[0], 'reduction=off tab(reduction=off)');
    assert.equal(off[1], 'Play');
    assert.equal(off[2], '200');
    assert.equal(off[3], '48% 95% interval 41–55%');
    assert.equal(off[5], '0.97 95% interval 0.88–1');
    assert.equal(off[6], '94% 95% interval 90–96.5%');
    assert.equal(off[7], '97.2 95% interval 92.9–102');
    assert.equal(off[9], '—');
    assert.equal(tab.rows[0].cells[9], '0.84 95% interval 0.79–0.88');

    // The Tihbat study played no game: the solver's values, and no column of games or measures.
    const tihbat = await tableOf(page, 'tihbat-seeds');
    assert.deepEqual(tihbat.headers.map((h) => h.text), [
      'Variant', 'Play', 'Value of the start (solver)',
    ]);
    assert.deepEqual(tihbat.rows.map((r) => r.cells[2]), [
      '0', '−2', 'not solved: no exact value: under cycle=own-side the value of a position depends on its history',
    ]);
    assert.equal(await page.locator('#study-tihbat-seeds a[href$="report.html"]').count(), 1);

    // The page does not scroll sideways, and the table fits its box (on a phone as cards); the
    // box would scroll a wider table from the keyboard.
    const widths = await page.evaluate(() => {
      const box = document.querySelector('#study-tab-reduction .table-scroll');
      return {
        page: document.documentElement.scrollWidth,
        viewport: window.innerWidth,
        box: box.clientWidth,
        table: box.scrollWidth,
        focusable: box.tabIndex === 0,
      };
    });
    assert.ok(widths.page <= widths.viewport, JSON.stringify(widths));
    assert.ok(widths.focusable);
    assert.ok(widths.table <= widths.box, JSON.stringify(widths));

    await screenshot(page, `variants-${size}`);
    await context.close();
    assert.deepEqual(problems, [], size);
  }
});

test('the Variants view has no serious accessibility violation', async () => {
  for (const [size, viewport] of Object.entries(SIZES)) {
    const problems = [];
    // Axe is injected as an inline script, which the page's policy forbids.
    const context = await env.browser.newContext({ viewport, bypassCSP: true });
    const page = watch(await context.newPage(), problems);
    await openVariants(page);
    const found = await axeViolations(page);
    await context.close();
    assert.deepEqual(found, [], size);
    assert.deepEqual(problems, []);
  }
});

test("one click on a row's Play starts a game of that row's ruleset", async () => {
  const problems = [];
  const context = await env.browser.newContext({ viewport: SIZES.phone });
  const page = watch(await context.newPage(), problems);
  // The server's own opponent for a ruleset string (a preset's measured strongest player
  // holds on the preset only; a variant gets the server's choice for it).
  const opponent = async (ruleset) =>
    (await api(env, 'POST', '/api/games', { ruleset })).seats[1].player;
  // The canonical string the server gives a ruleset, for comparing with the game's.
  const canonical = async (ruleset) =>
    (await api(env, 'POST', '/api/games', { ruleset, seats: ['human', 'human'] })).state.ruleset;

  // With the mouse.
  await openVariants(page);
  await page.locator('#study-tab-reduction tr[data-ruleset="tab(reduction=off)"] button.play-variant').click();
  await page.waitForURL(/\/play\/[0-9a-f]+#token=/);
  await settled(page);
  let id = /\/play\/([0-9a-f]+)/.exec(page.url())[1];
  let game = await api(env, 'GET', `/api/games/${id}`);
  assert.equal(game.ruleset, await canonical('tab(reduction=off)'));
  assert.match(game.ruleset, /reduction=off/);
  assert.deepEqual(game.seats.map((s) => s.player), ['human', await opponent('tab(reduction=off)')]);
  assert.match(await page.locator('#role').textContent(), /You play white/);

  // From the keyboard: Play focused, then Enter.
  await openVariants(page);
  const play = page.locator('#study-tihbat-seeds tr[data-ruleset="tihbat(seeds=3)"] button.play-variant');
  await play.focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/play\/[0-9a-f]+#token=/);
  await settled(page);
  id = /\/play\/([0-9a-f]+)/.exec(page.url())[1];
  game = await api(env, 'GET', `/api/games/${id}`);
  assert.equal(game.ruleset, await canonical('tihbat(seeds=3)'));
  assert.deepEqual(game.seats.map((s) => s.player), ['human', await opponent('tihbat(seeds=3)')]);
  await context.close();
  assert.deepEqual(problems, []);
});

test('a chart opens full size in a dialog, which Escape closes', async () => {
  for (const [size, viewport] of Object.entries(SIZES)) {
    const problems = [];
    const context = await env.browser.newContext({ viewport });
    const page = watch(await context.newPage(), problems);
    await openVariants(page);
    const link = page.locator('#study-tab-reduction a.chart-open').first();
    assert.equal(await link.getAttribute('href'), '/variants/tab-reduction/win-rates.svg');
    assert.equal(await page.locator('#chart-dialog').isVisible(), false);
    // A click (a tap on a phone) opens it.
    await link.click();
    await page.waitForFunction(() => {
      const img = document.getElementById('chart-full-img');
      return document.getElementById('chart-dialog').open && img.complete && img.naturalWidth > 0;
    });
    const shown = await page.evaluate(() => {
      const img = document.getElementById('chart-full-img');
      return {
        src: img.getAttribute('src'),
        alt: img.alt,
        title: document.getElementById('chart-dialog-title').textContent,
        width: img.getBoundingClientRect().width,
        natural: img.naturalWidth,
        focus: document.activeElement.id,
      };
    });
    assert.equal(shown.src, '/variants/tab-reduction/win-rates.svg');
    assert.equal(shown.alt, shown.title);
    assert.match(shown.title, /win rate/i);
    assert.ok(Math.abs(shown.width - shown.natural) < 1, `full size at ${size}: ${JSON.stringify(shown)}`);
    assert.equal(shown.focus, 'chart-close');
    await screenshot(page, `chart-dialog-${size}`);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.getElementById('chart-dialog').open);
    assert.equal(await link.evaluate((a) => a === document.activeElement), true, 'the focus is back on the chart');
    // From the keyboard: Enter on the chart's link; the Close button closes too.
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('chart-dialog').open);
    await page.click('#chart-close');
    await page.waitForFunction(() => !document.getElementById('chart-dialog').open);
    await context.close();
    assert.deepEqual(problems, [], size);
  }
});

/** The published studies' Variants view, every chart loaded. */
async function openPublished(context, problems) {
  const page = watch(await context.newPage(), problems);
  await openVariants(page, published.server);
  for (const img of await page.locator('figure.chart img').all()) {
    await img.scrollIntoViewIfNeeded();
    await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await img.elementHandle());
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  return page;
}

test('the published charts are shown at the size they were drawn for on a desktop', async () => {
  const problems = [];
  const context = await published.browser.newContext({ viewport: SIZES.desktop });
  const page = await openPublished(context, problems);
  const charts = await page.locator('figure.chart img').evaluateAll((imgs) => imgs.map((img) => ({
    src: img.getAttribute('src'),
    scale: img.getBoundingClientRect().width / img.naturalWidth,
  })));
  assert.ok(charts.length >= 20, `${charts.length} charts`);
  // Labels drawn at 12 px or more stay at 11 px or more.
  for (const c of charts) assert.ok(c.scale >= 0.92, `${c.src} shown at ${c.scale.toFixed(2)} of its size`);
  await screenshot(page, 'variants-published-desktop');
  await context.close();
  assert.deepEqual(problems, []);
});

test('the published tables fit their box, and no label runs under its Play button', async () => {
  for (const [size, viewport] of Object.entries(SIZES)) {
    const problems = [];
    const context = await published.browser.newContext({ viewport });
    const page = await openPublished(context, problems);
    const found = await page.evaluate(() => {
      const overlaps = [];
      const widths = [];
      for (const box of document.querySelectorAll('.table-scroll')) {
        widths.push({ id: box.closest('article').id, box: box.clientWidth, table: box.scrollWidth });
      }
      const cross = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
      for (const tr of document.querySelectorAll('.study-table tbody tr')) {
        const button = tr.querySelector('button.play-variant').getBoundingClientRect();
        // Every line of the variant's text, as laid out.
        const range = document.createRange();
        range.selectNodeContents(tr.querySelector('th'));
        for (const line of range.getClientRects()) {
          if (cross(line, button)) overlaps.push(tr.dataset.ruleset);
        }
      }
      return { overlaps, widths, page: document.documentElement.scrollWidth, window: window.innerWidth };
    });
    assert.deepEqual(found.overlaps, [], size);
    for (const w of found.widths) assert.ok(w.table <= w.box, `${size}: ${JSON.stringify(w)}`);
    assert.ok(found.page <= found.window, `${size}: the page scrolls sideways`);
    if (size === 'phone') {
      // On a phone each variant is a card: its values under their columns' names.
      const card = await page.locator('#study-tab-options tbody tr').first().evaluate((tr) => ({
        labels: [...tr.querySelectorAll('.cell-label')].filter((l) => l.offsetParent).map((l) => l.textContent),
        play: tr.querySelector('button.play-variant').getBoundingClientRect().right <= window.innerWidth,
      }));
      assert.deepEqual(card.labels.slice(0, 3), ['Games', 'white wins', 'black wins']);
      assert.ok(card.play);
    }
    await screenshot(page, `variants-published-${size}`);
    await context.close();
    assert.deepEqual(problems, [], size);
  }
});
