// Drawing the game screen from the view shown: the board, the turn and what to do, the
// information, the moves and the actions. What the page does when a square, an action or a
// move of the list is picked is set by the modules that act (`controls`), so that drawing
// depends on nothing that acts.

import { drawBoard, drawThrows } from './board.js';
import { $, page, playerName } from './page.js';

/** What picking a square or pit, an action, or an entry of the move list does. */
export const controls = {
  pick: () => {},
  play: () => {},
  showIndex: () => {},
};

export const heldSeats = () => Object.keys(page.tokens);

export function myTurnToken(view) {
  if (view.turn.kind !== 'player' || !view.turn.human) return null;
  return page.tokens[view.turn.seat] || null;
}

/** True while the player looks at an earlier state of the game. */
function browsing() {
  return !page.following;
}

/** True while another's turn is shown step by step on the way to the live state. */
function animating() {
  return page.following && page.shown && page.live && page.shown.index !== page.live.index;
}

/** A decision made on this page (shown at once; others' actions are shown step by step). */
export function isMine(a) {
  return Boolean(a && a.actor !== 'chance' && page.tokens[a.seat]);
}

// Legal actions grouped for the board: by source square/pit, then by target.
export function sourceOf(detail) {
  if (!detail || typeof detail !== 'object') return null;
  return detail.from ?? detail.pit ?? null;
}

function boardMarks(view, canAct) {
  const marks = new Map();
  if (!canAct) return marks;
  for (const a of view.legal) {
    const from = sourceOf(a.detail);
    if (from !== null && !marks.has(from)) marks.set(from, 'source');
  }
  if (page.selected !== null) {
    for (const a of view.legal) {
      if (sourceOf(a.detail) === page.selected && a.detail.to) marks.set(a.detail.to, 'target');
    }
    marks.set(page.selected, 'selected');
  }
  return marks;
}

/** The action at `i` of the history of `view` (the game's, or the view's own list). */
function actionAt(view, i) {
  if (page.actions.length >= view.index) return page.actions[i];
  const from = view.actions_from ?? 0;
  return i >= from ? (view.actions || [])[i - from] : undefined;
}

/**
 * The squares of the opponent's last turn (of the last mover's, for a spectator or two people
 * on one screen): name -> 'from' | 'to', from the `detail` of its decisions.
 */
function lastMoveMarks(view) {
  const marks = new Map();
  const held = heldSeats();
  let seat = held.length === 1 ? view.seats.map((s) => s.seat).find((s) => s !== held[0]) : null;
  const turn = [];
  for (let i = view.index - 1; i >= 0; i--) {
    const a = actionAt(view, i);
    if (!a) break;
    if (a.actor === 'chance') continue;
    if (seat === null) seat = a.seat;
    if (a.seat === seat) turn.push(a);
    else if (turn.length) break;
  }
  for (const a of turn.reverse()) {
    const d = a.detail;
    if (!d || typeof d !== 'object') continue;
    const from = d.from ?? d.pit;
    if (from !== undefined && from !== null) marks.set(from, 'from');
    if (d.to !== undefined && d.to !== null) marks.set(d.to, 'to');
  }
  return marks;
}

/** A button that plays the legal action `a`, labelled with its notation and description. */
function choiceButton(a) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'choice';
  b.dataset.action = a.action;
  b.textContent = `${a.action}: ${a.description}`;
  b.addEventListener('click', () => controls.play(a.action));
  return b;
}

export function prompt(actions, title, keepSelection) {
  const box = $('prompt');
  $('prompt-title').textContent = title;
  const choices = $('prompt-choices');
  choices.replaceChildren();
  for (const a of actions) choices.appendChild(choiceButton(a));
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.textContent = 'Cancel';
  cancel.addEventListener('click', () => {
    box.hidden = true;
    if (!keepSelection) page.selected = null;
    render();
  });
  choices.appendChild(cancel);
  box.hidden = false;
  const first = choices.querySelector('button');
  if (first && !keepSelection) {
    first.focus({ preventScroll: true });
    // Into view only if it is not, and never so far that the board leaves the screen: the
    // page scrolls by what the box lacks, at most until the board's top reaches the top.
    const lacking = box.getBoundingClientRect().bottom - window.innerHeight;
    const boardTop = $('board').getBoundingClientRect().top;
    const by = Math.min(lacking, boardTop);
    if (by > 0) window.scrollBy(0, by);
  }
}

export function setStatus(text) {
  $('status').textContent = text;
}

function seatLabel(view, seat) {
  const s = view.seats.find((x) => x.seat === seat);
  if (page.tokens[seat]) return heldSeats().length > 1 ? `${seat}` : `${seat} (you)`;
  return s && s.player !== 'human' ? `${seat} (computer)` : seat;
}

function statusText(view) {
  const t = view.turn;
  if (t.kind === 'over') return 'The game is over.';
  if (t.kind === 'chance') return `${t.seat ? `${seatLabel(view, t.seat)}: ` : ''}the sticks are being thrown…`;
  if (!t.human) return `${seatLabel(view, t.seat)} is thinking…`;
  if (page.tokens[t.seat]) return `${seatLabel(view, t.seat)} to move`;
  return `Waiting for ${t.seat}`;
}

const againstComputer = (view) => view.seats.some((s) => s.player !== 'human');

/** What to do next, in plain words, for the game and the turn. */
function instructionText(view, canAct) {
  const live = page.live;
  if (browsing()) return 'You are looking at an earlier position: » (or the End key) returns to the game.';
  if (animating()) {
    const a = page.actions[page.shown.index - 1];
    const who = a && a.seat ? `${seatLabel(live, a.seat)}'s turn` : 'the moves';
    return `Showing ${who} step by step (» skips to the end).`;
  }
  const t = live.turn;
  if (t.kind === 'over') return 'The game is over: download the record, or start a new game.';
  if (page.busy) return againstComputer(live) ? 'Waiting for the computer…' : 'Sending your move…';
  if (t.kind === 'chance') return 'The sticks are being thrown…';
  if (!t.human) return 'Waiting for the computer…';
  if (!page.tokens[t.seat]) {
    return heldSeats().length ? `Waiting for ${t.seat} to move…` : `You are watching: ${t.seat} to move.`;
  }
  if (!canAct) return '';
  const who = heldSeats().length > 1 ? `${t.seat}: ` : '';
  if (view.drawing.kind === 'tihbat') return `${who}Tap one of your blue pits to sow it.`;
  const squares = view.legal.some((a) => sourceOf(a.detail) !== null);
  const buttons = view.legal.some((a) => sourceOf(a.detail) === null);
  if (page.selected !== null) {
    return `${who}Now tap a green square to move the piece on ${page.selected}, or tap it again to choose another.`;
  }
  if (squares && buttons) return `${who}Tap a blue piece, then a green square, or choose a button below the board.`;
  if (squares) return `${who}Tap a blue piece, then a green square.`;
  return `${who}No piece can move: choose a button below the board.`;
}

function resultText(view) {
  const t = view.turn;
  if (t.kind !== 'over') return '';
  const who = t.winner ? `${t.winner} wins` : 'No winner';
  const held = heldSeats();
  let mine = '';
  if (t.winner && held.length === 1) mine = page.tokens[t.winner] ? ' — you win!' : ' — you lose';
  return `${who}${mine}: ${t.description}${t.truncated ? ' (stopped by a safety limit)' : ''}. Scores ${view.seats[0].seat} ${t.scores[0]}, ${view.seats[1].seat} ${t.scores[1]}.`;
}

function addInfo(dl, term, value, details = null) {
  const dt = document.createElement('dt');
  dt.textContent = term;
  const dd = document.createElement('dd');
  dd.textContent = value;
  if (details) {
    dd.title = details;
    const more = document.createElement('span');
    more.className = 'details';
    more.textContent = details;
    dd.append(' ', more);
  }
  dl.append(dt, dd);
}

/** Who plays a seat, in words: you, a person, or the computer by its level. */
function playerOf(view, s) {
  if (s.player !== 'human') return playerName(s.player, page.strongest);
  return page.tokens[s.seat] && heldSeats().length === 1 ? 'you' : 'person';
}

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

function renderInfo(view) {
  const dl = $('info');
  dl.replaceChildren();
  const d = view.drawing || {};
  addInfo(dl, 'To move', view.turn.kind === 'over' ? '—' : view.turn.seat || '—');
  view.seats.forEach((s) => {
    const who = playerOf(view, s);
    // The spec below the name, unless the name says all of it ("Computer — greedy").
    const spec = s.player === 'human' || who.endsWith(`— ${s.player}`) ? null : s.player;
    addInfo(dl, s.seat, who, spec);
  });
  // Each side's own pieces, and what the other side took of them: no line mixes the two sides.
  view.seats.forEach((s, i) => {
    const other = view.seats[1 - i].seat;
    if (d.kind === 'tab') {
      const parts = [`${d.on_board[i]} on the board`];
      if (d.unconverted[i]) parts[0] += ` (${d.unconverted[i]} not yet converted)`;
      parts.push(`${view.scores[1 - i]} taken by ${other}`);
      if (d.removed[i]) parts.push(`${d.removed[i]} lost to reductions`);
      addInfo(dl, `${s.seat}'s pieces`, parts.join('; '));
    } else {
      addInfo(dl, `Captured by ${s.seat}`, plural(view.scores[i], 'counter', 'counters'));
    }
  });
}

const entryKey = (a) => `${a.index}:${a.actor}:${a.action}`;

/** An entry of the move list: who threw or moved, and what. */
function moveEntry(a) {
  const li = document.createElement('li');
  li.dataset.key = entryKey(a);
  const b = document.createElement('button');
  b.type = 'button';
  b.className = `move-entry ${a.actor === 'chance' ? 'chance' : 'decision'}`;
  b.dataset.index = String(a.index + 1);
  const shown = document.createElement('span');
  shown.textContent = a.actor === 'chance'
    ? `${a.seat ? `${a.seat} threw` : 'throw'} ${a.action}`
    : `${a.seat || a.actor} ${a.action}`;
  const words = document.createElement('span');
  words.className = 'visually-hidden';
  words.textContent = `: ${a.description}`;
  b.append(shown, words);
  b.title = a.description;
  b.addEventListener('click', () => controls.showIndex(a.index + 1));
  li.appendChild(b);
  return li;
}

/** Scrolls `box` (never the page) so that `item` is inside it. */
function keepInBox(box, item) {
  const top = item.offsetTop;
  const bottom = top + item.offsetHeight;
  if (top < box.scrollTop) box.scrollTop = top;
  else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
}

function renderMoves(view) {
  const list = $('moves');
  const actions = page.actions;
  let keep = 0;
  const items = list.children;
  while (keep < items.length && keep < actions.length && items[keep].dataset.key === entryKey(actions[keep])) keep++;
  while (list.children.length > keep) list.lastElementChild.remove();
  if (keep < actions.length) {
    const more = document.createDocumentFragment();
    for (let i = keep; i < actions.length; i++) more.appendChild(moveEntry(actions[i]));
    list.appendChild(more);
  }
  const old = list.querySelector('.current');
  const item = view.index > 0 ? list.children[view.index - 1] : null;
  const current = item ? item.firstElementChild : null;
  if (old !== current) {
    if (old) {
      old.classList.remove('current');
      old.removeAttribute('aria-current');
    }
    if (current) {
      current.classList.add('current');
      current.setAttribute('aria-current', 'step');
    }
  }
  if (item) keepInBox(list, item);
  else list.scrollTop = 0;
}

function renderActions(view, canAct) {
  const buttons = $('buttons');
  buttons.replaceChildren();
  const select = $('action-select');
  select.replaceChildren();
  if (canAct) {
    for (const a of view.legal) {
      if (sourceOf(a.detail) === null) buttons.appendChild(choiceButton(a));
      const opt = document.createElement('option');
      opt.value = a.action;
      opt.textContent = `${a.action} — ${a.description}`;
      select.appendChild(opt);
    }
  }
  select.disabled = !canAct || page.busy;
  $('action-play').disabled = !canAct || page.busy;
  select.closest('.keyboard').hidden = !canAct;
}

/** How the board is played from the keyboard, in the words of its board. */
const KEYS_SQUARES = 'Keyboard: Tab to a piece, arrow keys to another, Enter to pick it; then arrow keys among its squares, Enter to play, Escape to cancel.';
const KEYS_PITS = 'Keyboard: Tab to a pit, arrow keys to another of your pits, Enter to sow it.';

/** The board's buttons (squares or pits that can be picked), in drawing order. */
export const boardButtons = () => [...$('board').querySelectorAll('[role=button]')];
export const nameOf = (g) => g.dataset.square ?? g.dataset.pit;

/** Draws the board of the shown view, keeping the keyboard's place on it. */
function renderBoard(canAct) {
  const view = page.shown;
  const board = $('board');
  const hadFocus = board.contains(document.activeElement) && document.activeElement !== board;
  drawBoard(board, view, {
    marks: boardMarks(view, canAct),
    last: lastMoveMarks(view),
    flipped: Boolean(page.flipped),
    onPick: (name) => {
      page.keyboard = false;
      controls.pick(name);
    },
  });
  // Roving focus: one button of the board is in the tab order; arrow keys move it.
  const buttons = boardButtons();
  let current = buttons.find((g) => nameOf(g) === page.focus);
  if (!current && page.selected !== null) {
    current = buttons.find((g) => g.classList.contains('target')) || buttons.find((g) => g.classList.contains('selected'));
  }
  if (!current) current = buttons[0];
  if (current) {
    current.setAttribute('tabindex', '0');
    page.focus = nameOf(current);
    if (hadFocus) current.focus({ preventScroll: true });
  }
  // A board wider than its box scrolls sideways, and then takes the focus itself too.
  const scrolls = board.scrollWidth > board.clientWidth + 1;
  const d = view.drawing || {};
  if (scrolls) {
    board.setAttribute('tabindex', '0');
    board.setAttribute('role', 'region');
    board.setAttribute('aria-label', 'Board (scrolls sideways)');
  } else {
    board.removeAttribute('tabindex');
    board.removeAttribute('role');
    board.removeAttribute('aria-label');
  }
  const note = $('board-scroll');
  note.hidden = !scrolls;
  $('board-scroll-text').textContent = scrolls
    ? `The board's ${d.columns} columns are wider than the screen: scroll the board sideways to see them all.`
    : '';
  $('board-legend').hidden = d.kind !== 'tab';
  $('board-help').textContent = d.kind === 'tihbat' ? KEYS_PITS : KEYS_SQUARES;
  // A game opens (and a board turned round starts again) where this page's own pieces start.
  const place = `${page.id} ${Boolean(page.flipped)}`;
  if (page.boardPlaced !== place) {
    page.boardPlaced = place;
    placeBoard(board, view);
  }
  scrollEdges();
}

/**
 * Scrolls a board wider than its box to the first column (as drawn) that holds a piece of the
 * seat this page plays (the first seat's for a spectator or two people on one screen), with
 * the row numbers in view when they fit.
 */
function placeBoard(board, view) {
  if (board.scrollWidth <= board.clientWidth + 1) return;
  const held = heldSeats();
  const mine = held.length === 1 ? held[0] : view.seats[0].seat;
  const squares = [...board.querySelectorAll(`[data-owner="${mine}"]`)];
  if (!squares.length) {
    board.scrollLeft = 0;
    return;
  }
  const origin = board.getBoundingClientRect().left - board.scrollLeft;
  const first = Math.min(...squares.map((g) => g.getBoundingClientRect().left - origin));
  const cell = Number(board.querySelector('svg').dataset.cell) || 0;
  // Back by one square and the row numbers, so that the start reads as a start.
  board.scrollLeft = Math.max(0, first - cell - 20);
}

/** The board's pieces that can move, none of which is in view: the side they are on, or null. */
function movableOutOfView(board) {
  const sources = [...board.querySelectorAll('g.source, g.selected')];
  if (!sources.length) return null;
  const box = board.getBoundingClientRect();
  const rects = sources.map((g) => g.getBoundingClientRect());
  if (rects.some((r) => r.right > box.left + 4 && r.left < box.right - 4)) return null;
  return rects[0].left >= box.right - 4 ? 'right' : 'left';
}

/**
 * Marks the board's box with the sides it can still scroll to (its edges are shaded there),
 * and offers to scroll to the pieces that can move when none of them is in view.
 */
export function scrollEdges() {
  const board = $('board');
  const frame = $('board-frame');
  const max = board.scrollWidth - board.clientWidth;
  frame.classList.toggle('more-left', max > 1 && board.scrollLeft > 1);
  frame.classList.toggle('more-right', max > 1 && board.scrollLeft < max - 1);
  const side = max > 1 ? movableOutOfView(board) : null;
  const go = $('board-to-movable');
  go.hidden = side === null;
  go.textContent = side ? `The pieces you can move are further ${side}: show them` : '';
}

/** Scrolls the board to its first piece that can move. */
export function showMovable() {
  const g = $('board').querySelector('g.selected, g.source');
  if (g) g.scrollIntoView({ block: 'nearest', inline: 'center' });
}

export function render() {
  const view = page.shown;
  if (!view) return;
  const live = page.live;
  const past = browsing();
  const stepping = animating();
  const canAct = !past && !stepping && !page.busy && myTurnToken(live) !== null;
  document.title = `Qasab — ${view.name}`;
  $('game-title').textContent = view.title;
  if (!canAct) {
    page.selected = null;
    $('prompt').hidden = true;
  }
  renderBoard(canAct);
  const tab = view.drawing && view.drawing.kind === 'tab';
  $('throws').hidden = !tab;
  if (tab) drawThrows($('sticks'), $('pending'), view);
  if (!page.busy) {
    let status = statusText(view);
    if (past) status = `Position after ${view.index} action${view.index === 1 ? '' : 's'}`;
    else if (stepping) status = `Showing action ${view.index} of ${live.index}`;
    setStatus(status);
  }
  $('instruction').textContent = instructionText(view, canAct);
  const result = $('result');
  result.hidden = view.turn.kind !== 'over';
  result.textContent = resultText(view);
  renderInfo(view);
  renderMoves(view);
  renderActions(view, canAct);
  $('viewing').hidden = !past;
  $('viewing').textContent = past ? `Viewing position ${view.index} of ${live.index}; use › or the → key to step, » to return to the game.` : '';
  $('step-first').disabled = view.index === 0;
  $('step-prev').disabled = view.index === 0;
  $('step-next').disabled = view.index >= live.index;
  $('step-last').disabled = view.index >= live.index;
  $('flip').setAttribute('aria-pressed', String(Boolean(page.flipped)));
  const hasToken = heldSeats().length > 0;
  $('undo').hidden = !(hasToken && live.can_undo && !past);
  $('undo').disabled = page.busy;
  $('hint').hidden = !(page.hintRoute && canAct && live.hints !== false);
  $('download').href = `/api/games/${page.id}/record`;
  // For tests and styling: where the page stands.
  const body = document.body.dataset;
  body.index = String(live.index);
  body.shown = String(view.index);
  body.state = page.busy ? 'busy' : stepping ? 'animating' : live.turn.kind === 'over' ? 'over' : canAct ? 'ready' : past ? 'browsing' : 'waiting';
}

export function hideHints() {
  $('hint-box').hidden = true;
  $('hints').replaceChildren();
}
