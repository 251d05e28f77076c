// Qasab's web page: a new game at `/`, a game at `/play/{id}` (the seat token after
// `#token=`; several for two people on one screen; none for a spectator). Every rule is the
// server's: the page draws the view it gets and offers only the legal actions it lists.

import { drawBoard, drawSticks } from './board.js';

const $ = (id) => document.getElementById(id);

const page = {
  rulesets: [],
  paths: {}, // the API's paths, from its OpenAPI document (to know the optional routes)
  id: null,
  tokens: {}, // seat name -> token
  live: null, // the game's current view
  shown: null, // the view drawn (the live one, or an earlier state)
  selected: null, // the square or pit picked as the source of a move
  busy: false,
  pollTimer: null,
  socket: null,
  hintsShown: false,
};

// ---------- talking to the server ----------

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function api(method, path, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
  });
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    throw new ApiError(res.status, (data && data.error) || `${res.status} ${res.statusText}`);
  }
  return data;
}

function showMessage(text) {
  const m = $('message');
  if (!text) {
    m.hidden = true;
    m.textContent = '';
    return;
  }
  m.textContent = text;
  m.hidden = false;
}

async function loadRulesets() {
  if (page.rulesets.length === 0) page.rulesets = await api('GET', '/api/rulesets');
  return page.rulesets;
}

async function loadPaths() {
  try {
    const doc = await api('GET', '/api/openapi.json');
    page.paths = (doc && doc.paths) || {};
  } catch {
    page.paths = {};
  }
}

const hasRoute = (path) => Object.prototype.hasOwnProperty.call(page.paths, path);

// ---------- the new-game screen ----------

// An option's values as a list of choices, or null when they are a range or free text.
function choicesOf(values) {
  const parts = values.split('|').map((v) => v.trim());
  if (parts.length < 2) return null;
  if (parts.some((p) => p === '' || /[\s.=:;()]/.test(p))) return null;
  return parts;
}

// The players that take a strength preset (`level=1..5`).
const LEVELLED = ['mcts', 'expectimax'];

function computerPlayers(ruleset) {
  return ruleset.players.filter((p) => p !== 'human');
}

/** The computer's spec: the chosen player, with the chosen level when it takes one. */
function computerSpec() {
  const player = $('computer-player').value;
  const level = $('computer-level').value;
  return LEVELLED.includes(player) && level !== 'default' ? `${player}(level=${level})` : player;
}

function currentRuleset() {
  return page.rulesets.find((r) => r.name === $('ruleset').value) || page.rulesets[0];
}

function renderOptions() {
  const r = currentRuleset();
  $('ruleset-title').textContent = r.title;
  const list = $('option-list');
  list.replaceChildren();
  for (const o of r.options) {
    const row = document.createElement('div');
    row.className = 'field option';
    const id = `opt-${o.key}`;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = o.key.replace(/_/g, ' ');
    label.title = o.help;
    const choices = choicesOf(o.values);
    let input;
    if (choices) {
      input = document.createElement('select');
      for (const c of choices) {
        const opt = document.createElement('option');
        opt.value = c;
        opt.textContent = c;
        input.appendChild(opt);
      }
      input.value = o.default ?? choices[0];
    } else {
      input = document.createElement('input');
      input.type = 'text';
      input.value = o.default ?? '';
      input.placeholder = o.values;
      input.spellcheck = false;
    }
    input.id = id;
    input.dataset.key = o.key;
    input.dataset.default = o.default ?? '';
    input.title = o.help;
    const help = document.createElement('p');
    help.className = 'help';
    help.id = `${id}-help`;
    help.textContent = `${o.help} (${o.values})`;
    input.setAttribute('aria-describedby', help.id);
    row.append(label, input, help);
    list.appendChild(row);
  }
  const computer = $('computer-player');
  computer.replaceChildren();
  for (const p of computerPlayers(r)) {
    const opt = document.createElement('option');
    opt.value = p;
    opt.textContent = p;
    computer.appendChild(opt);
  }
  // The game's strongest player (its default opponent), at its default level.
  computer.value = r.default_seats[1];
  $('computer-level').value = 'default';
  const seat = $('my-seat');
  seat.replaceChildren();
  r.seats.forEach((s, i) => {
    const opt = document.createElement('option');
    opt.value = String(i);
    opt.textContent = `${s}${i === 0 ? ' (moves first)' : ''}`;
    seat.appendChild(opt);
  });
  syncLevel();
}

// Only the players with strength presets take a level.
function syncLevel() {
  $('computer-level').disabled = !LEVELLED.includes($('computer-player').value);
}

function rulesetString() {
  const r = currentRuleset();
  const changed = [];
  for (const input of $('option-list').querySelectorAll('[data-key]')) {
    const v = input.value.trim();
    if (v !== '' && v !== input.dataset.default) changed.push(`${input.dataset.key}=${v}`);
  }
  return changed.length ? `${r.name}(${changed.join(',')})` : r.name;
}

function playLink(id, tokens, extra = '') {
  const frag = tokens.map((t) => `token=${t}`).join('&');
  return `/play/${id}${frag || extra ? '#' : ''}${frag}${frag && extra ? '&' : ''}${extra}`;
}

async function startGame(e) {
  e.preventDefault();
  showMessage('');
  const mode = document.querySelector('input[name=mode]:checked').value;
  const ruleset = rulesetString();
  let seats;
  if (mode === 'computer') {
    seats = ['human', 'human'];
    const mine = Number($('my-seat').value);
    seats[1 - mine] = computerSpec();
  } else {
    seats = ['human', 'human'];
  }
  $('start').disabled = true;
  try {
    const created = await api('POST', '/api/games', { body: { ruleset, seats } });
    const tokens = created.seats.filter((s) => s.token).map((s) => s.token);
    if (mode === 'friend') {
      showLinks(created);
    } else {
      location.assign(playLink(created.id, tokens));
    }
  } catch (err) {
    showMessage(`The game could not be created: ${err.message}`);
  } finally {
    $('start').disabled = false;
  }
}

function showLinks(created) {
  const list = $('link-list');
  list.replaceChildren();
  const entries = created.seats
    .filter((s) => s.link)
    .map((s) => ({ label: `${s.seat}'s link`, url: new URL(s.link, location.origin).href, seat: s.seat }));
  entries.push({ label: 'Spectators', url: new URL(created.spectator, location.origin).href, seat: 'spectator' });
  for (const entry of entries) {
    const li = document.createElement('li');
    const id = `link-${entry.seat}`;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = entry.label;
    const input = document.createElement('input');
    input.type = 'text';
    input.readOnly = true;
    input.value = entry.url;
    input.id = id;
    input.className = 'link-field';
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.textContent = 'Copy';
    copy.setAttribute('aria-label', `Copy ${entry.label}`);
    copy.addEventListener('click', async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(entry.url);
        copy.textContent = 'Copied';
      } catch {
        copy.textContent = 'Select and copy';
      }
    });
    const open = document.createElement('a');
    open.href = entry.url;
    open.textContent = 'Open';
    open.className = 'open-link';
    open.dataset.seat = entry.seat;
    li.append(label, input, copy, open);
    list.appendChild(li);
  }
  $('links').hidden = false;
  $('links').scrollIntoView({ block: 'nearest' });
}

async function showSetup() {
  $('setup').hidden = false;
  $('game').hidden = true;
  await loadRulesets();
  const select = $('ruleset');
  select.replaceChildren();
  for (const r of page.rulesets) {
    const opt = document.createElement('option');
    opt.value = r.name;
    opt.textContent = `${r.name} — ${r.title}`;
    select.appendChild(opt);
  }
  select.addEventListener('change', renderOptions);
  $('computer-player').addEventListener('change', syncLevel);
  for (const radio of document.querySelectorAll('input[name=mode]')) {
    radio.addEventListener('change', () => {
      $('computer-choice').hidden = !$('mode-computer').checked;
    });
  }
  $('setup-form').addEventListener('submit', startGame);
  renderOptions();
  $('nav-rules').hidden = false;
}

// ---------- opening a record ----------

async function openRecord(file) {
  showMessage('');
  try {
    const record = await file.text();
    const created = await api('POST', '/api/games/import', { body: { record } });
    const tokens = created.seats.filter((s) => s.token).map((s) => s.token);
    const target = playLink(created.id, tokens, 'step=0');
    location.assign(target);
  } catch (err) {
    showMessage(`The record could not be opened: ${err.message}`);
  }
}

// ---------- the game screen ----------

function myTurnToken(view) {
  if (view.turn.kind !== 'player' || !view.turn.human) return null;
  return page.tokens[view.turn.seat] || null;
}

function browsing() {
  return page.shown && page.live && page.shown.index !== page.live.index;
}

// Legal actions grouped for the board: by source square/pit, then by target.
function sourceOf(detail) {
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

function onPick(name) {
  const view = page.shown;
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
  } else if (fromHere.length > 0) {
    page.selected = name;
  }
  $('prompt').hidden = true;
  render();
  if (page.selected !== null) {
    const here = view.legal.filter((a) => sourceOf(a.detail) === page.selected && !a.detail.to);
    if (here.length > 0) prompt(here, `On ${page.selected} itself`, true);
    const again = document.querySelector(`[data-square="${page.selected}"]`);
    if (again) again.focus();
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

/** A button that plays the legal action `a`, labelled with its notation and description. */
function choiceButton(a) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'choice';
  b.dataset.action = a.action;
  b.textContent = `${a.action}: ${a.description}`;
  b.addEventListener('click', () => play(a.action));
  return b;
}

function prompt(actions, title, keepSelection) {
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
  if (first && !keepSelection) first.focus();
}

async function play(action) {
  const view = page.live;
  const token = myTurnToken(view);
  if (!token || page.busy) return;
  page.busy = true;
  page.selected = null;
  $('prompt').hidden = true;
  hideHints();
  showMessage('');
  setStatus(`Playing ${action}…`);
  try {
    const next = await api('POST', `/api/games/${page.id}/actions`, { body: { action, index: view.index }, token });
    setLive(next);
  } catch (err) {
    showMessage(`${action} was refused: ${err.message}`);
    if (err.status === 409) await refresh();
  } finally {
    page.busy = false;
    render();
  }
}

function setStatus(text) {
  $('status').textContent = text;
}

function statusText(view) {
  const t = view.turn;
  const seatLabel = (seat) => {
    const s = view.seats.find((x) => x.seat === seat);
    if (page.tokens[seat]) return Object.keys(page.tokens).length > 1 ? `${seat}` : `${seat} (you)`;
    return s && s.player !== 'human' ? `${seat} (computer)` : seat;
  };
  if (t.kind === 'over') return 'The game is over.';
  if (t.kind === 'chance') return `${t.seat ? `${seatLabel(t.seat)}: ` : ''}the sticks are being thrown…`;
  if (!t.human) return `${seatLabel(t.seat)} is thinking…`;
  if (page.tokens[t.seat]) return `${seatLabel(t.seat)} to move`;
  return `Waiting for ${t.seat}`;
}

function resultText(view) {
  const t = view.turn;
  if (t.kind !== 'over') return '';
  const who = t.winner ? `${t.winner} wins` : 'No winner';
  const mine = t.winner && page.tokens[t.winner] && Object.keys(page.tokens).length === 1 ? ' — you win!' : '';
  return `${who}${mine}: ${t.description}${t.truncated ? ' (stopped by a safety limit)' : ''}. Scores ${view.seats[0].seat} ${t.scores[0]}, ${view.seats[1].seat} ${t.scores[1]}.`;
}

function addInfo(dl, term, value) {
  const dt = document.createElement('dt');
  dt.textContent = term;
  const dd = document.createElement('dd');
  dd.textContent = value;
  dl.append(dt, dd);
}

function renderInfo(view) {
  const dl = $('info');
  dl.replaceChildren();
  const d = view.drawing || {};
  addInfo(dl, 'To move', view.turn.kind === 'over' ? '—' : view.turn.seat || '—');
  view.seats.forEach((s, i) => {
    addInfo(dl, s.seat, `${s.player === 'human' ? (page.tokens[s.seat] ? (Object.keys(page.tokens).length > 1 ? 'person' : 'you') : 'person') : s.player}`);
    if (d.kind === 'tab') {
      addInfo(dl, `${s.seat} captured`, `${view.scores[i]}; on board ${d.on_board[i]} (${d.unconverted[i]} unconverted)${d.removed[i] ? `, lost to reductions ${d.removed[i]}` : ''}`);
      addInfo(dl, `${s.seat} banked tabs`, String(d.banked[i]));
    } else {
      addInfo(dl, `${s.seat} captured`, String(view.scores[i]));
    }
  });
  if (d.kind === 'tab') {
    addInfo(dl, 'Pending throws', d.pending.length ? d.pending.map((t) => `${t.value} (${t.name})`).join(', ') : 'none');
  }
}

function renderMoves(view) {
  const list = $('moves');
  const live = page.live;
  const items = [];
  for (const a of live.actions) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = `move-entry ${a.actor === 'chance' ? 'chance' : 'decision'}`;
    b.dataset.index = String(a.index + 1);
    b.textContent = `${a.actor === 'chance' ? 'throw' : a.actor} ${a.action}`;
    b.title = a.description;
    b.setAttribute('aria-label', `${a.index + 1}. ${a.description}`);
    if (a.index + 1 === view.index) {
      b.setAttribute('aria-current', 'step');
      b.classList.add('current');
    }
    b.addEventListener('click', () => showIndex(a.index + 1));
    li.appendChild(b);
    items.push(li);
  }
  list.replaceChildren(...items);
  const current = list.querySelector('.current');
  if (current && typeof current.scrollIntoView === 'function') current.scrollIntoView({ block: 'nearest' });
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

function render() {
  const view = page.shown;
  if (!view) return;
  const live = page.live;
  const past = browsing();
  const canAct = !past && !page.busy && myTurnToken(live) !== null;
  document.title = `Qasab — ${view.name}`;
  $('game-title').textContent = view.title;
  if (!canAct) {
    page.selected = null;
    $('prompt').hidden = true;
  }
  drawBoard($('board'), view, boardMarks(view, canAct), onPick);
  drawSticks($('sticks'), view.drawing && view.drawing.kind === 'tab' ? view.drawing.last_throw : null);
  if (!page.busy) setStatus(past ? `Position after ${view.index} action${view.index === 1 ? '' : 's'}` : statusText(view));
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
  const hasToken = Object.keys(page.tokens).length > 0;
  $('undo').hidden = !(hasToken && live.can_undo && !past);
  $('undo').disabled = page.busy;
  $('hint').hidden = !(page.hintRoute && canAct);
  $('download').href = `/api/games/${page.id}/record`;
  // For tests and styling: where the page stands.
  const body = document.body.dataset;
  body.index = String(live.index);
  body.shown = String(view.index);
  body.state = page.busy ? 'busy' : live.turn.kind === 'over' ? 'over' : canAct ? 'ready' : past ? 'browsing' : 'waiting';
}

function setLive(view) {
  const followed = !page.shown || !page.live || page.shown.index === page.live.index;
  const changed = !page.live || page.live.index !== view.index || JSON.stringify(page.live.turn) !== JSON.stringify(view.turn);
  page.live = view;
  if (followed) {
    if (changed) {
      page.selected = null;
      hideHints();
    }
    page.shown = view;
  }
  render();
}

async function showIndex(index) {
  const live = page.live;
  if (!live) return;
  const i = Math.max(0, Math.min(index, live.index));
  try {
    page.shown = i === live.index ? live : await api('GET', `/api/games/${page.id}/states/${i}`);
    page.selected = null;
    hideHints();
    render();
  } catch (err) {
    showMessage(`That position could not be shown: ${err.message}`);
  }
}

async function refresh() {
  const view = await api('GET', `/api/games/${page.id}`);
  if (!page.live || page.live.index !== view.index || JSON.stringify(page.live.turn) !== JSON.stringify(view.turn) || page.live.can_undo !== view.can_undo) {
    setLive(view);
  }
}

function startPolling() {
  if (page.pollTimer) return;
  page.pollTimer = setInterval(async () => {
    if (page.busy) return;
    try {
      await refresh();
      if ($('message').dataset.offline) {
        delete $('message').dataset.offline;
        showMessage('');
      }
    } catch (err) {
      if (!(err instanceof ApiError)) {
        $('message').dataset.offline = '1';
        showMessage('The server cannot be reached; retrying…');
      }
    }
  }, 1000);
}

function startLive() {
  if (!hasRoute('/api/games/{id}/ws') || typeof WebSocket !== 'function') {
    startPolling();
    return;
  }
  let opened = false;
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  let socket;
  try {
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${page.id}/ws`);
  } catch {
    startPolling();
    return;
  }
  page.socket = socket;
  socket.addEventListener('open', () => {
    opened = true;
  });
  socket.addEventListener('message', (e) => {
    try {
      const msg = JSON.parse(e.data);
      if (msg && msg.type === 'state' && msg.state && !page.busy) setLive(msg.state);
    } catch {
      // Not a frame of the contract: ignored.
    }
  });
  socket.addEventListener('close', () => {
    page.socket = null;
    // Fall back to polling, which also notices when the server is back.
    startPolling();
    if (opened) setTimeout(() => {
      if (page.pollTimer) {
        clearInterval(page.pollTimer);
        page.pollTimer = null;
      }
      startLive();
    }, 3000);
  });
}

function hideHints() {
  $('hints').hidden = true;
  $('hints').replaceChildren();
}

async function hint() {
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
      const value = typeof m.value === 'number' ? m.value.toFixed(h.kind === 'estimate' ? 3 : 2) : String(m.value);
      b.textContent = `${m.action}: ${m.description} (${value})`;
      b.addEventListener('click', () => play(m.action));
      li.appendChild(b);
      list.appendChild(li);
    }
    list.setAttribute('aria-label', `Hint by ${h.agent} (${h.kind}), best first`);
    list.hidden = false;
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

async function undo() {
  const token = page.tokens[Object.keys(page.tokens)[0]];
  if (!token || page.busy) return;
  page.busy = true;
  try {
    const view = await api('POST', `/api/games/${page.id}/undo`, { token });
    page.shown = null;
    setLive(view);
  } catch (err) {
    showMessage(`Undo refused: ${err.message}`);
  } finally {
    page.busy = false;
    render();
  }
}

function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  return { tokens: params.getAll('token').filter((t) => t), step: params.get('step') };
}

async function showGame(id) {
  page.id = id;
  $('setup').hidden = true;
  $('game').hidden = false;
  const { tokens, step } = readFragment();
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
  $('role').textContent = Object.keys(page.tokens).length === 0
    ? 'You are watching.'
    : Object.keys(page.tokens).length > 1
      ? 'Both seats play on this screen.'
      : `You play ${Object.keys(page.tokens)[0]}.`;
  setLive(view);
  if (step !== null && /^\d+$/.test(step)) await showIndex(Number(step));
  startLive();
}

function stepKeys(e) {
  if (!page.live || $('game').hidden) return;
  const tag = (e.target && e.target.tagName) || '';
  if (['INPUT', 'SELECT', 'TEXTAREA'].includes(tag) || e.altKey || e.ctrlKey || e.metaKey) return;
  const i = page.shown.index;
  const keys = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: page.live.index };
  if (e.key in keys) {
    e.preventDefault();
    showIndex(keys[e.key]);
  } else if (e.key === 'Escape' && page.selected !== null) {
    page.selected = null;
    $('prompt').hidden = true;
    render();
  }
}

async function showRules() {
  await loadRulesets();
  const name = page.live ? page.live.name : $('ruleset').value;
  const r = page.rulesets.find((x) => x.name === name);
  $('rules-title').textContent = r ? `Rules: ${r.title}` : 'Rules';
  $('rules-text').textContent = r ? r.rules : '';
  $('rules-dialog').showModal();
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
  document.addEventListener('keydown', stepKeys);
  const m = /^\/play\/([^/]+)\/?$/.exec(location.pathname);
  try {
    if (m) {
      $('nav-rules').hidden = false;
      await showGame(decodeURIComponent(m[1]));
    } else {
      await showSetup();
    }
  } catch (err) {
    showMessage(`Something went wrong: ${err.message}`);
  }
}

main();
