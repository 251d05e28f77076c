// The game page as a player sees it, on a phone (390×844) and a desktop: the board stays in
// view and its squares readable, the throws to play, what to do next, the opponent's last
// move, the computer's turn step by step, who threw what, the board turned round for the
// second seat, and play from the keyboard.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  api, atOnce, clickOneMove, liveIndex, screenshot, serverAndBrowser, settled, watch,
} from './helpers.js';

const env = serverAndBrowser();

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** A game created through the API; its page opened for the first human seat (or watched). */
async function open(ruleset, seats, viewport, { spectator = false } = {}) {
  const created = await api(env, 'POST', '/api/games', { ruleset, seats });
  const problems = [];
  const context = await env.browser.newContext({ viewport });
  const page = watch(await context.newPage(), problems);
  const seat = created.seats.find((s) => s.link);
  await page.goto(`${env.server.url}${spectator ? created.spectator : seat.link}`);
  await page.waitForFunction(() => ['ready', 'over', 'waiting'].includes(document.body.dataset.state));
  return { created, page, context, problems, id: created.id, token: seat && seat.token };
}

/**
 * Passes every view of the game the page reads (answers of GET /api/games/{id} and WebSocket
 * frames) through `edit`, then reloads the page.
 */
async function editViews(page, edit) {
  await page.route('**/api/games/*', async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, json: edit(await res.json()) });
  });
  await page.routeWebSocket('**/api/games/*/ws', (ws) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      const frame = JSON.parse(message);
      ws.send(JSON.stringify({ ...frame, state: edit(frame.state) }));
    });
  });
  await page.reload();
}

/** The box of `selector` and whether it lies inside the viewport. */
async function inView(page, selector) {
  return page.evaluate((sel) => {
    const r = document.querySelector(sel).getBoundingClientRect();
    const inside = r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, inside, scrollY: window.scrollY };
  }, selector);
}

test('the board stays in view while playing, on a phone and on a desktop', async () => {
  for (const viewport of [PHONE, DESKTOP]) {
    const { page, context, problems } = await open('tab', ['human', 'greedy'], viewport);
    await settled(page);
    let box = await inView(page, '#board svg');
    assert.ok(box.inside, `on first load: ${JSON.stringify(box)}`);
    await atOnce(page);
    for (let move = 0; move < 10; move++) {
      if ((await settled(page)) === 'over') break;
      await clickOneMove(page);
      await settled(page);
      box = await inView(page, '#board svg');
      assert.ok(box.inside, `after move ${move} at ${viewport.width}px: ${JSON.stringify(box)}`);
      // The move list shows the current entry inside its own box.
      const listed = await page.evaluate(() => {
        const list = document.getElementById('moves');
        const current = list.querySelector('.current');
        if (!current) return true;
        const l = list.getBoundingClientRect();
        const c = current.getBoundingClientRect();
        return c.top >= l.top - 1 && c.bottom <= l.bottom + 1;
      });
      assert.ok(listed, 'the current move is scrolled into the list');
    }
    await screenshot(page, `board-in-view-${viewport.width}`);
    await context.close();
    assert.deepEqual(problems, []);
  }
});

test('wide boards scroll sideways with squares of 36 px or more and labels of 11 px or more', async () => {
  let shown = 0; // boards whose pieces that can move were out of view, and shown by the button
  for (const ruleset of ['tab(columns=29)', 'tab-modern(columns=29)', 'tab-hyde(columns=29)']) {
    for (const viewport of [PHONE, DESKTOP]) {
      const { page, context, problems } = await open(ruleset, ['human', 'greedy'], viewport);
      await settled(page);
      // It opens at its start: the first column, with the row numbers, in view in the box;
      // the page says that the board scrolls, and the legend is whole, outside the box.
      const start = await page.evaluate(() => {
        const board = document.getElementById('board');
        const box = board.getBoundingClientRect();
        const squares = [...board.querySelectorAll('[data-square]')].map((g) => g.getBoundingClientRect());
        const first = squares.reduce((a, b) => (b.left < a.left ? b : a));
        const rows = [...board.querySelectorAll('.row-label')].map((t) => t.getBoundingClientRect());
        const legend = document.getElementById('board-legend');
        const l = legend.getBoundingClientRect();
        const note = document.getElementById('board-scroll');
        return {
          firstInView: first.left >= box.left - 1 && first.right <= box.right + 1,
          rowsInView: rows.length === 4 && rows.every((r) => r.left >= box.left - 1 && r.right <= box.right + 1),
          legendOutside: !board.contains(legend),
          legendWhole: !legend.hidden && l.width > 0 && l.left >= 0 && l.right <= window.innerWidth
            && legend.scrollWidth <= legend.clientWidth + 1,
          note: note.hidden ? null : note.textContent,
        };
      });
      const at = `${ruleset} at ${viewport.width}px: ${JSON.stringify(start)}`;
      assert.ok(start.firstInView, `the first column is in view (${at})`);
      assert.ok(start.rowsInView, `the row numbers are in view (${at})`);
      assert.ok(start.legendOutside && start.legendWhole, `the legend is whole, outside the box (${at})`);
      assert.match(start.note || '', /29 columns .*scroll the board sideways/, at);
      // When no piece that can move is in view, a button says so and scrolls to them.
      const movable = () => page.evaluate(() => {
        const box = document.getElementById('board').getBoundingClientRect();
        return [...document.querySelectorAll('#board g.source')].some((g) => {
          const r = g.getBoundingClientRect();
          return r.left >= box.left - 1 && r.right <= box.right + 1;
        });
      });
      if ((await page.locator('#board g.source').count()) > 0) {
        const seen = await movable();
        // The page updates the button on its scroll events, which may still be on their way.
        await page.waitForFunction(
          (seen) => document.getElementById('board-to-movable').hidden === seen, seen, { timeout: 5000 },
        ).catch(() => {});
        assert.equal(await page.locator('#board-to-movable').isVisible(), !seen, at);
        if (!seen) {
          assert.match(await page.locator('#board-to-movable').textContent(), /pieces you can move are further right/);
          await page.click('#board-to-movable');
          await page.waitForFunction(() => {
            const box = document.getElementById('board').getBoundingClientRect();
            return [...document.querySelectorAll('#board g.source')].some((g) => {
              const r = g.getBoundingClientRect();
              return r.left >= box.left - 1 && r.right <= box.right + 1;
            });
          });
          // The button hides on the scroll events of that scroll, which may still be on their
          // way on a busy machine.
          await page.waitForFunction(
            () => document.getElementById('board-to-movable').hidden, null, { timeout: 5000 },
          ).catch(() => {});
          assert.equal(await page.locator('#board-to-movable').isVisible(), false, at);
          shown++;
        }
      }
      const sizes = await page.evaluate(() => {
        const cells = [...document.querySelectorAll('#board .cell')].map((c) => c.getBoundingClientRect());
        const fonts = [...document.querySelectorAll('#board text')].map(
          (t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
        );
        const board = document.getElementById('board');
        const svg = board.querySelector('svg');
        return {
          cells: cells.length,
          // A square's side on the screen: the board's pitch from square to square (each square
          // is drawn 1 px inside its edges, so its rectangle is 2 px narrower).
          pitch: Number(svg.dataset.cell) * svg.getScreenCTM().a,
          narrowest: Math.min(...cells.map((r) => r.width)),
          lowest: Math.min(...cells.map((r) => r.height)),
          smallestFont: Math.min(...fonts),
          boardScrolls: board.scrollWidth > board.clientWidth,
          pageScrolls: document.documentElement.scrollWidth > window.innerWidth,
        };
      });
      const where = `${ruleset} at ${viewport.width}px: ${JSON.stringify(sizes)}`;
      assert.equal(sizes.cells, 4 * 29, where);
      assert.ok(sizes.pitch >= 36, where);
      assert.ok(sizes.narrowest >= 34 && sizes.lowest >= 34, where);
      assert.ok(sizes.smallestFont >= 11, where);
      assert.ok(sizes.boardScrolls, where);
      assert.equal(sizes.pageScrolls, false, where);
      // Its far end is reached by scrolling the board, and a move is played there by clicking.
      await page.evaluate(() => {
        const board = document.getElementById('board');
        board.scrollLeft = board.scrollWidth;
      });
      const last = await page.evaluate(() => {
        const squares = [...document.querySelectorAll('#board [data-square]')];
        const r = squares[squares.length - 1].getBoundingClientRect();
        return r.right <= window.innerWidth + 1;
      });
      assert.ok(last, `the last column is reached (${where})`);
      await atOnce(page);
      await clickOneMove(page);
      await settled(page);
      await screenshot(page, `wide-${ruleset.replace(/\W+/g, '-')}-${viewport.width}`);
      await context.close();
      assert.deepEqual(problems, []);
    }
  }
  assert.ok(shown > 0, 'a board opened with its pieces that can move out of view');
});

test('the throws to play and the banked tâbs are shown beside the board', async () => {
  const { page, context, problems, id } = await open('tab(columns=7)', ['human', 'greedy'], PHONE);
  await settled(page);
  const view = await api(env, 'GET', `/api/games/${id}`);
  const chips = await page.locator('#pending .pending-throw').evaluateAll((cs) => cs.map((c) => Number(c.dataset.value)));
  assert.deepEqual(chips, view.drawing.pending.map((t) => t.value));
  assert.ok(chips.length > 0, 'a throw to play at the start of the turn');
  assert.ok(await page.locator('#throws').isVisible());
  assert.match(await page.locator('.throw-caption').textContent(), /^Last throw: /);
  assert.ok(await page.locator('#sticks:not(.played)').count());
  assert.ok((await inView(page, '#pending')).inside, 'the throws are in view on a phone');

  // A state with no throw left to play (the end of a turn): its last throw is marked played.
  await atOnce(page);
  for (let i = 0; i < 6 && (await settled(page)) === 'ready'; i++) await clickOneMove(page);
  await settled(page);
  const all = (await api(env, 'GET', `/api/games/${id}/actions`)).actions;
  let end = -1;
  for (let i = 1; i < all.length && end < 0; i++) {
    // A decision that ends a turn: the next action is a throw, and nothing is left to play.
    if (all[i].actor !== 'chance' || all[i - 1].actor === 'chance') continue;
    const past = await api(env, 'GET', `/api/games/${id}/states/${i}`);
    if (past.drawing.pending.length === 0 && past.drawing.last_throw) end = i;
  }
  assert.ok(end > 0, 'a turn ended');
  await page.click(`#moves button[data-index="${end}"]`);
  await page.waitForFunction((i) => document.body.dataset.shown === String(i), end);
  assert.equal(await page.locator('#pending .pending-throw').count(), 0);
  assert.match(await page.locator('#pending').textContent(), /No throw to play/);
  assert.ok(await page.locator('#sticks.played').count());
  assert.match(await page.locator('.throw-caption').textContent(), /\(played\)/);
  await context.close();
  assert.deepEqual(problems, []);

  // Banked tâbs: a game whose drawing says white has banked two.
  const banked = await open('tab(columns=7)', ['human', 'greedy'], DESKTOP);
  await editViews(banked.page, (view) => ({ ...view, drawing: { ...view.drawing, banked: [2, 0] } }));
  await settled(banked.page);
  assert.equal(await banked.page.locator('#pending .banked').textContent(), 'white: 2 banked tâbs');
  await banked.context.close();
  assert.deepEqual(banked.problems, []);
});

test('a long chain of throws to play stays in view beside the board on a phone', async () => {
  // The game's throws are the server's; a view edited to hold sixteen throws to play stands for
  // the longest chains (a run of 1s, 4s and 6s), which once pushed the list below the screen.
  const { page, context, problems } = await open('tab(columns=7)', ['human', 'greedy'], PHONE);
  await settled(page);
  await editViews(page, (view) => {
    const one = view.drawing.pending[0] || view.drawing.last_throw;
    return { ...view, drawing: { ...view.drawing, pending: Array.from({ length: 16 }, () => one), banked: [3, 0] } };
  });
  await settled(page);
  assert.equal(await page.locator('#pending .pending-throw').count(), 16);
  const box = await inView(page, '#pending');
  assert.ok(box.inside, `the throws are in view: ${JSON.stringify(box)}`);
  assert.ok((await inView(page, '#board svg')).inside, 'the board is in view');
  // The row scrolls sideways to its last chip, the banked tâbs (in one step: a frame of the
  // game may redraw the row at any time).
  const banked = await page.evaluate(() => {
    const row = document.getElementById('pending');
    row.scrollLeft = row.scrollWidth;
    const r = row.querySelector('.banked').getBoundingClientRect();
    return { left: r.left, right: r.right, width: window.innerWidth };
  });
  assert.ok(banked.left >= 0 && banked.right <= banked.width + 1, `the banked tâbs scroll into view: ${JSON.stringify(banked)}`);
  await context.close();
  assert.deepEqual(problems, []);
});

test('the page says what to do next, for the game and the turn', async () => {
  const tab = await open('tab(columns=7)', ['human', 'mcts(time=1500)'], DESKTOP);
  await settled(tab.page);
  const instruction = () => tab.page.locator('#instruction').textContent();
  assert.match(await instruction(), /Tap a blue piece, then a green square/);
  await tab.page.locator('#board g.source').first().click();
  assert.match(await instruction(), /Now tap a green square/);
  await tab.page.keyboard.press('Escape');
  assert.match(await instruction(), /Tap a blue piece/);
  // Moves until the turn passes: the computer thinks, and the page says so. The throws are
  // the server's, and a run of 1s, 4s and 6s keeps the turn, so the bound is generous.
  let waited = false;
  for (let i = 0; i < 200 && !waited; i++) {
    const before = await liveIndex(tab.page);
    const source = tab.page.locator('#board g.source').first();
    if (await source.count()) {
      await source.click();
      const target = tab.page.locator('#board g.target').first();
      if (await target.count()) await target.click();
      const choice = tab.page.locator('#prompt:not([hidden]) button.choice').first();
      if (await choice.count()) await choice.click();
    } else {
      await tab.page.locator('#buttons button').first().click();
    }
    const seen = await tab.page.waitForFunction(
      (n) => {
        const text = document.getElementById('instruction').textContent;
        if (/Waiting for the computer/.test(text)) return 'waiting';
        return Number(document.body.dataset.index) !== n && document.body.dataset.state === 'ready' ? 'ready' : false;
      },
      before,
      { timeout: 30000 },
    );
    waited = (await seen.jsonValue()) === 'waiting';
    await settled(tab.page);
  }
  assert.ok(waited, 'the page said it waits for the computer');
  await tab.context.close();
  assert.deepEqual(tab.problems, []);

  const tihbat = await open('tihbat', ['human', 'solver'], PHONE);
  await settled(tihbat.page);
  assert.match(await tihbat.page.locator('#instruction').textContent(), /Tap one of your blue pits to sow it/);
  await tihbat.context.close();
  assert.deepEqual(tihbat.problems, []);

  const watcher = await open('tihbat', ['human', 'human'], PHONE, { spectator: true });
  assert.match(await watcher.page.locator('#instruction').textContent(), /You are watching: south to move/);
  await watcher.context.close();
  assert.deepEqual(watcher.problems, []);
});

/** The squares (or pit) of `seat`'s last turn in `actions`: name -> 'from' | 'to'. */
function lastTurnSquares(actions, seat) {
  const turn = [];
  for (let i = actions.length - 1; i >= 0; i--) {
    const a = actions[i];
    if (a.actor === 'chance') continue;
    if (a.seat === seat) turn.push(a);
    else if (turn.length) break;
  }
  const marks = new Map();
  for (const a of turn.reverse()) {
    const from = a.detail.from ?? a.detail.pit;
    if (from !== undefined) marks.set(from, 'from');
    if (a.detail.to !== undefined) marks.set(a.detail.to, 'to');
  }
  return marks;
}

test("the opponent's last move is marked on the board", async () => {
  for (const [ruleset, computer] of [['tab(columns=7)', 'greedy'], ['tihbat', 'solver']]) {
    const { page, context, problems, id, created } = await open(ruleset, ['human', computer], DESKTOP);
    await atOnce(page);
    const opponent = created.seats[1].seat;
    // Play until the computer has moved a piece: a turn that only passes (no tâb yet) marks
    // no square, so a fixed number of clicks is not enough on an unlucky throw.
    for (let i = 0; i < 60; i++) {
      const all = (await api(env, 'GET', `/api/games/${id}/actions`)).actions;
      if (lastTurnSquares(all, opponent).size > 0) break;
      await settled(page);
      await clickOneMove(page);
    }
    await settled(page);
    const all = (await api(env, 'GET', `/api/games/${id}/actions`)).actions;
    const expected = lastTurnSquares(all, opponent);
    assert.ok(expected.size > 0, `${ruleset}: the computer moved`);
    const marked = await page.evaluate(() => {
      const out = {};
      for (const g of document.querySelectorAll('#board .last-from, #board .last-to')) {
        out[g.dataset.square ?? g.dataset.pit] = g.classList.contains('last-to') ? 'to' : 'from';
      }
      return out;
    });
    assert.deepEqual(marked, Object.fromEntries(expected), ruleset);
    for (const name of expected.keys()) {
      const label = await page.locator(`#board [data-square="${name}"], #board [data-pit="${name}"]`).getAttribute('aria-label');
      assert.match(label, /last move/, `${ruleset} ${name}`);
    }
    await screenshot(page, `last-move-${ruleset.replace(/\W+/g, '-')}`);
    await context.close();
    assert.deepEqual(problems, []);
  }
});

test("the computer's turn is shown step by step, the player's own move at once", async () => {
  // The throws come from the server's own randomness, so a game can end before the computer
  // has had a turn of several actions; then a new game is started.
  let page, context, problems, turn = null;
  for (let game = 0; game < 4 && !turn; game++) {
    if (context) {
      await context.close();
      assert.deepEqual(problems, []);
    }
    let id;
    ({ page, context, problems, id } = await open('tab(columns=7)', ['human', 'greedy'], DESKTOP));
    await settled(page);
    // Every state shown, with the time it was shown.
    await page.evaluate(() => {
      window.shownLog = [];
      const note = () => window.shownLog.push([performance.now(), Number(document.body.dataset.shown)]);
      new MutationObserver(note).observe(document.body, { attributes: true, attributeFilter: ['data-shown'] });
    });
    // Moves until the computer has had a turn of several actions.
    for (let i = 0; i < 12 && !turn && (await settled(page)) !== 'over'; i++) {
      const before = await liveIndex(page);
      await page.evaluate(() => window.shownLog.push([performance.now(), 'click']));
      await clickOneMove(page);
      await settled(page);
      const after = await liveIndex(page);
      const all = (await api(env, 'GET', `/api/games/${id}/actions`)).actions;
      // The person's move, then at least two actions of the computer and the sticks.
      if (after - before >= 3 && all.slice(before + 1, after).some((a) => a.seat === 'black')) turn = { before, after };
    }
  }
  assert.ok(turn, 'the computer had a turn');
  const log = await page.evaluate(() => window.shownLog);
  const click = log.map((e) => e[1]).lastIndexOf('click');
  const clickedAt = log[click][0];
  const steps = [];
  for (const [t, shown] of log.slice(click + 1)) {
    if (shown === turn.before) continue;
    if (steps.length === 0 || steps[steps.length - 1][1] !== shown) steps.push([t, shown]);
  }
  const indices = steps.map((s) => s[1]);
  // The person's move at once, then each state in order up to the live one.
  assert.equal(indices[0], turn.before + 1, JSON.stringify(steps));
  assert.ok(steps[0][0] - clickedAt < 1500, JSON.stringify(steps));
  assert.equal(indices[indices.length - 1], turn.after, JSON.stringify(steps));
  assert.ok(indices.length >= 3, `intermediate states shown: ${JSON.stringify(steps)}`);
  for (let k = 1; k < steps.length; k++) {
    assert.ok(indices[k] > indices[k - 1], JSON.stringify(steps));
    assert.ok(steps[k][0] - steps[k - 1][0] >= 400, `a readable pace: ${JSON.stringify(steps)}`);
  }
  await context.close();
  assert.deepEqual(problems, []);
});

test('the move list says who threw each throw', async () => {
  const { page, context, problems, id } = await open('tab(columns=7)', ['human', 'greedy'], DESKTOP);
  await atOnce(page);
  // Play until the computer (black) has thrown too: a turn of White's may hold several moves
  // (a throw of 1, 4 or 6 throws again), and the game's throws are its own.
  const blackThrew = async () => (await api(env, 'GET', `/api/games/${id}/actions`)).actions
    .some((a) => a.actor === 'chance' && a.seat === 'black');
  for (let i = 0; i < 30 && (await settled(page)) === 'ready' && !(await blackThrew()); i++) {
    await clickOneMove(page);
  }
  await settled(page);
  const all = (await api(env, 'GET', `/api/games/${id}/actions`)).actions;
  const entries = await page.locator('#moves .move-entry').evaluateAll((bs) => bs.map((b) => b.textContent));
  assert.equal(entries.length, all.length);
  let throws = 0;
  all.forEach((a, i) => {
    if (a.actor !== 'chance') return;
    throws++;
    assert.ok(entries[i].startsWith(`${a.seat} threw ${a.action}`), `${entries[i]} for ${JSON.stringify(a)}`);
  });
  assert.ok(throws > 1);
  assert.ok(entries.some((e) => e.startsWith('black threw')), entries.join('\n'));
  await context.close();
  assert.deepEqual(problems, []);
});

/** The row (1 to 4) drawn at the bottom of a Tâb board, or the owner of the bottom pits. */
function bottom(page) {
  return page.evaluate(() => {
    const items = [...document.querySelectorAll('#board [data-square], #board [data-pit]')];
    const low = items.reduce((a, b) => (b.getBoundingClientRect().top > a.getBoundingClientRect().top ? b : a));
    return low.dataset.row ?? low.dataset.pit;
  });
}

test('the board is turned round for the second seat, and a flip control works for everyone', async () => {
  const black = await open('tab(columns=7)', ['greedy', 'human'], PHONE);
  await settled(black.page);
  assert.match(await black.page.locator('#role').textContent(), /You play black/);
  assert.equal(await bottom(black.page), '4', "black's home row is at the bottom");
  assert.equal(await black.page.locator('#flip').getAttribute('aria-pressed'), 'true');
  await black.page.click('#flip');
  assert.equal(await bottom(black.page), '1');
  await screenshot(black.page, 'flipped-back');
  await black.context.close();
  assert.deepEqual(black.problems, []);

  const north = await open('tihbat', ['solver', 'human'], PHONE);
  await settled(north.page);
  assert.ok(['C', 'D'].includes(await bottom(north.page)), "north's pits at the bottom");
  await north.context.close();
  assert.deepEqual(north.problems, []);

  const watcher = await open('tab(columns=7)', ['human', 'human'], DESKTOP, { spectator: true });
  assert.equal(await bottom(watcher.page), '1');
  assert.ok(await watcher.page.locator('#flip').isVisible());
  await watcher.page.click('#flip');
  assert.equal(await bottom(watcher.page), '4');
  assert.equal(await watcher.page.locator('#flip').getAttribute('aria-pressed'), 'true');
  await watcher.context.close();
  assert.deepEqual(watcher.problems, []);
});

test('every square has an accessible name, and a move is played from the keyboard', async () => {
  const { page, context, problems } = await open('tab(columns=7)', ['human', 'greedy'], DESKTOP);
  await atOnce(page);
  await settled(page);
  const names = await page.locator('#board [data-square]').evaluateAll((gs) => gs.map((g) => [g.getAttribute('role'), g.getAttribute('aria-label'), g.dataset.owner]));
  assert.equal(names.length, 28);
  for (const [role, label, owner] of names) {
    assert.ok(['img', 'button'].includes(role), label);
    assert.match(label, /^Square \w+, /);
    if (owner) assert.match(label, new RegExp(`^Square \\w+, ${owner} (piece|stack of \\d+), `));
    else assert.match(label, /, empty/);
  }
  // Tab reaches one piece that can move (roving focus), arrows go to the others.
  await page.focus('#pace');
  await page.keyboard.press('Tab');
  const focused = () => page.evaluate(() => {
    const g = document.activeElement;
    return { name: g.dataset.square ?? null, classes: g.getAttribute('class') || '' };
  });
  let at = await focused();
  assert.match(at.classes, /\bsource\b/, JSON.stringify(at));
  assert.equal(await page.locator('#board [tabindex="0"]').count(), 1);
  const sources = await page.locator('#board g.source').count();
  if (sources > 1) {
    await page.keyboard.press('ArrowRight');
    const next = await focused();
    assert.match(next.classes, /\bsource\b/);
    assert.notEqual(next.name, at.name);
    at = next;
  }
  // Enter picks it; the focus goes to its first target; Escape cancels.
  await page.keyboard.press('Enter');
  let now = await focused();
  assert.ok(/\btarget\b/.test(now.classes) || /\bselected\b/.test(now.classes), JSON.stringify(now));
  assert.equal(await page.locator('#board g.selected').getAttribute('data-square'), at.name);
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#board g.selected').count(), 0);
  now = await focused();
  assert.equal(now.name, at.name);
  // Enter, arrows among the targets, Enter plays (or asks which move, answered with Enter).
  const before = await liveIndex(page);
  await page.keyboard.press('Enter');
  const targets = await page.locator('#board g.target').count();
  if (targets > 1) {
    const first = (await focused()).name;
    await page.keyboard.press('ArrowRight');
    const second = await focused();
    assert.match(second.classes, /\btarget\b/);
    assert.notEqual(second.name, first);
  }
  assert.equal(await page.evaluate(() => Number(document.body.dataset.shown)), before, 'the arrows did not step through the game');
  await page.keyboard.press('Enter');
  if (await page.locator('#prompt:not([hidden])').count()) await page.keyboard.press('Enter');
  await page.waitForFunction((i) => Number(document.body.dataset.index) > i, before);
  await context.close();
  assert.deepEqual(problems, []);
});

test('the hint button is shown only where the game allows hints', async () => {
  for (const hints of [false, true]) {
    const { page, context, problems } = await open('tihbat', ['human', 'solver'], DESKTOP);
    const doc = await api(env, 'GET', '/api/openapi.json');
    // The view says whether hints may be asked, in every answer and frame.
    await editViews(page, (view) => ({ ...view, hints }));
    await settled(page);
    const shown = await page.locator('#hint').isVisible();
    assert.equal(shown, hints && Boolean(doc.paths['/api/games/{id}/hint']), `hints: ${hints}`);
    await context.close();
    assert.deepEqual(problems, []);
  }
});
