// Qasab's web page: a new game at `/`, a game at `/play/{id}` (the seat token after
// `#token=`; several for two people on one screen; none for a spectator), the studies of the
// rules' variants at `/variants`. Every rule is the server's: the page draws the view it gets
// and offers only the legal actions it lists.

import { loadRulesets } from './api.js';
import { boardKeys, hint, play, showGame, stepKeys, undo } from './game.js';
import { showIndex } from './live.js';
import { $, page, showMessage } from './page.js';
import { openRecord } from './record.js';
import { render, scrollEdges, showMovable } from './render.js';
import { showSetup } from './setup.js';
import { showVariants } from './variants.js';

async function showRules() {
  await loadRulesets();
  const name = page.live ? page.live.name : $('ruleset').value;
  const r = page.rulesets.find((x) => x.name === name);
  $('rules-title').textContent = r ? `Rules: ${r.title}` : 'Rules';
  $('rules-text').textContent = r ? r.rules : '';
  $('rules-dialog').showModal();
}

let resizing = false;

function onResize() {
  if (resizing || !page.shown) return;
  resizing = true;
  requestAnimationFrame(() => {
    resizing = false;
    render();
  });
}

async function main() {
  $('nav-rules').addEventListener('click', showRules);
  $('record-file').addEventListener('change', (e) => {
    const f = e.target.files && e.target.files[0];
    if (f) openRecord(f);
  });
  $('action-play').addEventListener('click', () => {
    const v = $('action-select').value;
    if (v) play(v);
  });
  $('step-first').addEventListener('click', () => showIndex(0));
  $('step-prev').addEventListener('click', () => showIndex(page.shown.index - 1));
  $('step-next').addEventListener('click', () => showIndex(page.shown.index + 1));
  $('step-last').addEventListener('click', () => showIndex(page.live.index));
  $('hint').addEventListener('click', hint);
  $('undo').addEventListener('click', undo);
  $('flip').addEventListener('click', () => {
    page.flipped = !page.flipped;
    render();
  });
  $('pace').addEventListener('change', () => {
    page.pace = Number($('pace').value);
  });
  $('board').addEventListener('keydown', boardKeys);
  $('board').addEventListener('scroll', scrollEdges, { passive: true });
  // The board's box can change width without a scroll (the page laid out again around it):
  // what is in view changes with it.
  new ResizeObserver(() => scrollEdges()).observe($('board'));
  $('board-to-movable').addEventListener('click', showMovable);
  document.addEventListener('keydown', stepKeys);
  window.addEventListener('resize', onResize);
  const m = /^\/play\/([^/]+)\/?$/.exec(location.pathname);
  try {
    if (m) {
      $('nav-rules').hidden = false;
      await showGame(decodeURIComponent(m[1]));
    } else if (/^\/variants\/?$/.test(location.pathname)) {
      await showVariants();
    } else {
      await showSetup();
    }
  } catch (err) {
    showMessage(`Something went wrong: ${err.message}`);
  }
}

main();
