// The game screen at `/play/{id}`: the seats this page holds, picking and playing actions
// from the board or the keyboard, hints and undo.

import { api, hasRoute, loadPaths, strongestOf } from './api.js';
import { receive, refresh, showIndex, startLive } from './live.js';
import { $, page, playerName, showMessage } from './page.js';
import {
  boardButtons,
  controls,
  heldSeats,
  hideHints,
  myTurnToken,
  nameOf,
  prompt,
  render,
  setStatus,
  sourceOf,
} from './render.js';

function onPick(name) {
  const view = page.shown;
  const keyboard = page.keyboard;
  const fromHere = view.legal.filter((a) => sourceOf(a.detail) === name);
  if (view.drawing.kind === 'tihbat') {
    choose(fromHere, `Sow pit ${name}`);
    return;
  }
  if (page.selected !== null && name !== page.selected) {
    const to = view.legal.filter((a) => sourceOf(a.detail) === page.selected && a.detail.to === name);
    if (to.length > 0) {
      choose(to, `From ${page.selected} to ${name}`);
      return;
    }
  }
  if (page.selected === name) {
    page.selected = null;
    page.focus = name;
  } else if (fromHere.length > 0) {
    page.selected = name;
    // From the keyboard, on to the first target; a click keeps the piece's focus.
    page.focus = keyboard ? null : name;
  }
  $('prompt').hidden = true;
  render();
  if (page.selected !== null) {
    const here = view.legal.filter((a) => sourceOf(a.detail) === page.selected && !a.detail.to);
    if (here.length > 0) prompt(here, `On ${page.selected} itself`, true);
  }
}

// Plays the only action, or asks which of several.
function choose(actions, title) {
  if (actions.length === 1) {
    play(actions[0].action);
  } else if (actions.length > 1) {
    prompt(actions, `${title}: which move?`, false);
  }
}

export async function play(action) {
  const view = page.live;
  const token = myTurnToken(view);
  if (!token || page.busy) return;
  page.busy = true;
  page.selected = null;
  $('prompt').hidden = true;
  hideHints();
  showMessage('');
  render();
  setStatus(`Playing ${action}…`);
  try {
    const next = await api('POST', `/api/games/${page.id}/actions`, { body: { action, index: view.index }, token });
    await receive(next, 'http');
  } catch (err) {
    showMessage(`${action} was refused: ${err.message}`);
    if (err.status === 409) await refresh();
  } finally {
    page.busy = false;
    render();
  }
}

export function boardKeys(e) {
  const g = e.target && e.target.closest ? e.target.closest('[role=button]') : null;
  if (!g || !$('board').contains(g)) return;
  const name = nameOf(g);
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    e.stopPropagation();
    page.keyboard = true;
    onPick(name);
    page.keyboard = false;
    return;
  }
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
  if (step) {
    e.preventDefault();
    e.stopPropagation();
    let group = boardButtons();
    // Once a piece is picked, the keys go among its targets.
    const targets = group.filter((b) => !b.classList.contains('selected'));
    if (page.selected !== null && targets.length) group = targets;
    const i = group.indexOf(g);
    const next = group[(i + step + group.length) % group.length];
    for (const b of boardButtons()) b.setAttribute('tabindex', '-1');
    next.setAttribute('tabindex', '0');
    page.focus = nameOf(next);
    next.focus({ preventScroll: false });
    return;
  }
  if (e.key === 'Escape') {
    e.preventDefault();
    e.stopPropagation();
    cancelSelection();
  }
}

function cancelSelection() {
  if (page.selected === null) return;
  page.focus = page.selected;
  page.selected = null;
  $('prompt').hidden = true;
  render();
}

// What the seats' sanctuaries decide (docs/ENDGAMES.md, "Fortresses"): units no enemy piece
// can reach and that never have to move. Empty where no seat holds one.
function fortressNote(sanctuaries, view) {
  if (!sanctuaries) return '';
  const what = 'a unit no enemy piece can reach and that never has to move';
  const holds = sanctuaries.map((squares, i) => (squares.length ? `${view.seats[i].seat} on ${squares.join(', ')}` : ''));
  if (holds[0] && holds[1]) {
    return `Both sides hold a sanctuary (${what}: ${holds[0]}; ${holds[1]}): neither can win, and the game is a draw under perfect play.`;
  }
  const i = holds.findIndex((h) => h);
  if (i < 0) return '';
  const [seat, other] = [view.seats[i].seat, view.seats[1 - i].seat];
  const Seat = seat.charAt(0).toUpperCase() + seat.slice(1);
  return `${Seat} holds a sanctuary (${what}: ${holds[i]}): ${seat} cannot lose, and ${other} cannot win.`;
}

export async function hint() {
  const view = page.live;
  const token = myTurnToken(view);
  if (!token) return;
  $('hint').disabled = true;
  try {
    const h = await api('POST', `/api/games/${page.id}/hint`, { body: { index: view.index }, token });
    const list = $('hints');
    list.replaceChildren();
    for (const m of h.moves) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'choice';
      b.textContent = `${m.action}: ${m.description} (${hintValue(m.value, h.kind)})`;
      b.addEventListener('click', () => play(m.action));
      li.appendChild(b);
      list.appendChild(li);
    }
    // Where the server's endgame tables hold the position, they rank the moves, not the player.
    const by = h.kind === 'exact-result' ? 'the endgame tables'
      : h.agent === page.strongest ? 'the strongest computer player' : playerName(h.agent, null).replace('Computer — ', 'the computer player ');
    $('hint-title').textContent = `Your moves ranked by ${by}, best first. ${HINT_SCALE[h.kind] || ''}`.trim();
    $('hint-title').title = h.agent;
    const note = fortressNote(h.sanctuaries, view);
    $('hint-fortress').textContent = note;
    $('hint-fortress').hidden = !note;
    $('hint-box').hidden = false;
  } catch (err) {
    if (err.status === 404 && !/no game/.test(err.message)) {
      page.hintRoute = false;
    } else {
      showMessage(`No hint: ${err.message}`);
    }
  } finally {
    $('hint').disabled = false;
    render();
  }
}

/** What a hint's values mean, by the answer's `kind` (as the terminal's hint says it). */
const HINT_SCALE = {
  estimate: 'The value in brackets is the estimated result for you, from −1 (a loss) to +1 (a win).',
  'exact-result': 'The value in brackets is your exact result from the endgame tables, from −1 (a loss) to +1 (a win); 0 is play that never ends.',
  'exact-margin': "The value in brackets is exact: your captures still to come minus your opponent's, with perfect play.",
  'approximate-margin': "The value in brackets is your captures still to come minus your opponent's, with perfect play as if the position were new (not proven for this game's history).",
};

/** A hint's value with its sign, a true minus, and as many decimals as its kind has. */
function hintValue(value, kind) {
  if (typeof value !== 'number') return String(value);
  const text = kind === 'estimate' || kind === 'exact-result' ? Math.abs(value).toFixed(3) : String(Math.abs(value));
  const sign = value > 0 ? '+' : value < 0 ? '\u2212' : '';
  return `${sign}${text}`;
}

export async function undo() {
  const token = page.tokens[heldSeats()[0]];
  if (!token || page.busy) return;
  page.busy = true;
  render();
  try {
    const view = await api('POST', `/api/games/${page.id}/undo`, { token });
    await receive(view, 'undo');
  } catch (err) {
    showMessage(`Undo refused: ${err.message}`);
  } finally {
    page.busy = false;
    render();
  }
}

function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  return { tokens: params.getAll('token').filter((t) => t), step: params.get('step'), pace: params.get('pace') };
}

export async function showGame(id) {
  page.id = id;
  $('setup').hidden = true;
  $('game').hidden = false;
  const { tokens, step, pace } = readFragment();
  if (pace !== null && /^\d+$/.test(pace)) {
    page.pace = Math.min(Number(pace), 5000);
    const option = [...$('pace').options].find((o) => Number(o.value) === page.pace);
    if (option) $('pace').value = option.value;
  }
  await loadPaths();
  page.hintRoute = hasRoute('/api/games/{id}/hint');
  let view;
  try {
    view = await api('GET', `/api/games/${id}`);
  } catch (err) {
    $('game').hidden = true;
    showMessage(err.status === 404 ? `There is no game ${id} on this server.` : `The game could not be loaded: ${err.message}`);
    return;
  }
  // The strongest player of this very ruleset, to name the computer seat that is it.
  page.strongest = await strongestOf(view.ruleset);
  const refused = [];
  for (const t of tokens) {
    try {
      const s = await api('GET', `/api/games/${id}/seat`, { token: t });
      page.tokens[s.seat] = t;
    } catch (err) {
      refused.push(err.message);
    }
  }
  if (refused.length) {
    showMessage(`This link's token was refused (${refused[0]}): you can watch, not play.`);
  }
  const held = heldSeats();
  $('role').textContent = held.length === 0
    ? 'You are watching.'
    : held.length > 1
      ? 'Both seats play on this screen.'
      : `You play ${held[0]}.`;
  // The board is turned round for whoever holds the second seat alone.
  page.flipped = held.length === 1 && held[0] === view.seats[1].seat;
  await receive(view, 'http');
  if (step !== null && /^\d+$/.test(step)) await showIndex(Number(step));
  startLive();
}

export function stepKeys(e) {
  if (!page.live || $('game').hidden) return;
  const tag = (e.target && e.target.tagName) || '';
  if (['INPUT', 'SELECT', 'TEXTAREA'].includes(tag) || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.target && e.target.closest && e.target.closest('#board [role=button]')) return;
  const i = page.shown.index;
  const keys = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: page.live.index };
  if (e.key in keys) {
    e.preventDefault();
    showIndex(keys[e.key]);
  } else if (e.key === 'Escape') {
    cancelSelection();
  }
}

// What the drawn board, action buttons and move list do when picked.
Object.assign(controls, { pick: onPick, play, showIndex });
