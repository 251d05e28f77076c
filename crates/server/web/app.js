// Qasab's web page: a new game at `/`, a game at `/play/{id}` (the seat token after
// `#token=`; several for two people on one screen; none for a spectator), the studies of the
// rules' variants at `/variants`. Every rule is the server's: the page draws the view it gets
// and offers only the legal actions it lists.

import { drawBoard, drawThrows } from './board.js';

const $ = (id) => document.getElementById(id);

const page = {
  rulesets: [],
  players: [], // every computer player with its options, from the API
  paths: {}, // the API's paths, from its OpenAPI document (to know the optional routes)
  id: null,
  tokens: {}, // seat name -> token
  live: null, // the game's current view (its `actions` are not kept: see `actions`)
  actions: [], // every action of the game so far, kept from the views and frames
  shown: null, // the view drawn (the live one, an earlier state, or a step towards the live one)
  following: true, // false while the player looks at an earlier state
  generation: 0, // bumped when the live state goes back (an undo): stale steps are dropped
  stepping: false, // the computer's turn is being shown step by step
  lastStep: 0, // when the last step was shown (ms)
  pace: 600, // ms per step of another's turn
  flipped: null, // the board turned round (null until the page knows whose it is)
  selected: null, // the square or pit picked as the source of a move
  focus: null, // the square or pit that has the board's roving focus
  busy: false,
  pollTimer: null,
  socket: null,
  queue: Promise.resolve(), // views are taken in one at a time, in order
  answers: 0, // answers to this page's own requests taken in (a poll older than one is dropped)
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

// The computer players with their options (GET /api/players); none if the list cannot be
// read, and then no player offers a level.
async function loadPlayers() {
  if (page.players.length === 0) {
    try {
      page.players = await api('GET', '/api/players');
    } catch {
      page.players = [];
    }
  }
  return page.players;
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

/** The strength presets a player takes: the range of its `level=` option (`1..=5`), or none. */
function levelsOf(player) {
  const p = page.players.find((x) => x.name === player);
  const level = p && p.options.find((o) => o.key === 'level');
  const range = level && /^(\d+)\.\.=(\d+)$/.exec(level.values);
  const levels = [];
  if (range) {
    for (let l = Number(range[1]); l <= Number(range[2]); l++) levels.push(l);
  }
  return levels;
}

function computerPlayers(ruleset) {
  return ruleset.players.filter((p) => p !== 'human');
}

/** The game's strongest player (its default opponent), at its default level. */
function defaultComputer(ruleset) {
  return ruleset.default_seats[1];
}

/**
 * The computer's seat: the chosen player, with the chosen level when it takes one; null for
 * the game's default opponent at its default level, which the server picks for the exact
 * ruleset (the strongest player measured on a preset may be a whole spec, and a variant of
 * the preset gets the server's own choice for it).
 */
function computerSpec() {
  const player = $('computer-player').value;
  const level = $('computer-level').value;
  const levels = levelsOf(player).length > 0;
  if (player === defaultComputer(currentRuleset()) && (!levels || level === 'default')) {
    return null;
  }
  return levels && level !== 'default' ? `${player}(level=${level})` : player;
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
  // The strongest player, when it is a whole spec rather than a player's name, is offered
  // first under its own entry.
  const strongest = defaultComputer(r);
  if (!computerPlayers(r).includes(strongest)) {
    const opt = document.createElement('option');
    opt.value = strongest;
    opt.textContent = `strongest: ${strongest}`;
    computer.prepend(opt);
  }
  computer.value = strongest;
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

// Only the players with strength presets take a level, from their own range.
function syncLevel() {
  const select = $('computer-level');
  const levels = levelsOf($('computer-player').value);
  const chosen = select.value;
  select.replaceChildren();
  const add = (value, text) => {
    const opt = document.createElement('option');
    opt.value = value;
    opt.textContent = text;
    select.appendChild(opt);
  };
  add('default', 'default');
  levels.forEach((l, i) => {
    const note = i === 0 ? ' (easiest)' : i === levels.length - 1 ? ' (strongest)' : '';
    add(String(l), `${l}${note}`);
  });
  select.value = levels.some((l) => String(l) === chosen) ? chosen : 'default';
  select.disabled = levels.length === 0;
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
  await loadPlayers();
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

// ---------- the studies of the variants ----------

const MINUS = '\u2212';

/** A number to 2 or 3 significant digits (whole from 100 up), with a true minus sign. */
function formatNumber(x) {
  const a = Math.abs(x);
  const text = a >= 100 ? String(Math.round(x)) : String(Number(x.toPrecision(a >= 1 ? 3 : 2)));
  return text.replace('-', MINUS);
}

/** A proportion in [0, 1] as a percentage, to one decimal at most. */
function formatPercent(x) {
  return `${formatNumber(Math.round(x * 1000) / 10)}%`;
}

const isNumber = (x) => typeof x === 'number' && Number.isFinite(x);

/**
 * A cell's content for an estimate `{value, ci95}`: the value, then its 95% interval on a
 * line of its own (named for screen readers). Null when there is no value.
 */
function estimateCell(estimate, format) {
  if (!estimate || !isNumber(estimate.value)) return null;
  const frag = document.createDocumentFragment();
  const value = document.createElement('span');
  value.className = 'value';
  value.textContent = format(estimate.value);
  frag.appendChild(value);
  const ci = estimate.ci95;
  if (Array.isArray(ci) && ci.length === 2 && ci.every(isNumber)) {
    const interval = document.createElement('span');
    interval.className = 'ci';
    const label = document.createElement('span');
    label.className = 'visually-hidden';
    label.textContent = '95% interval ';
    // A dash between two bounds reads as a minus when one is negative: "to" there.
    const dash = ci[0] < 0 || ci[1] < 0 ? ' to ' : '–';
    const high = format(ci[1]);
    // A unit is written once, after the high bound ("41–55%").
    const low = format(ci[0]).replace(/%$/, '');
    interval.append(label, `${low}${dash}${high}`);
    frag.appendChild(interval);
  }
  return frag;
}

/** The solver's value of the start (`{"value": -2}`), or why there is none. */
function solverCell(solver) {
  if (!solver || typeof solver !== 'object') return null;
  if (isNumber(solver.value)) {
    const v = solver.value;
    return `${v > 0 ? '+' : ''}${formatNumber(v)}`;
  }
  if (typeof solver.error === 'string') return `not solved: ${solver.error}`;
  return null;
}

const metric = (name, format) => (v) => estimateCell(v.metrics && v.metrics[name], format);

/**
 * The columns of a study's table after the variant's label: a header and a cell maker; a cell
 * maker's null is a missing value. Columns that no variant has a value for are left out.
 */
function studyColumns(variants) {
  const seats = (variants.find((v) => Array.isArray(v.seats) && v.seats.length) || {}).seats || [];
  const columns = [
    {
      header: 'Ruleset',
      cell: (v) => {
        const code = document.createElement('code');
        code.textContent = v.ruleset;
        return code;
      },
      always: true,
      wrap: true,
    },
    { header: 'Games', cell: (v) => (isNumber(v.games) ? String(v.games) : null), always: true },
  ];
  seats.forEach((seat, i) => {
    columns.push({ header: `${seat} wins`, cell: (v) => estimateCell(v.win_rates && v.win_rates[i], formatPercent) });
  });
  columns.push(
    { header: 'Balance', cell: metric('Balance', formatNumber) },
    { header: 'Completion', cell: metric('Completion', formatPercent) },
    { header: 'Turns', cell: metric('DurationTurns', formatNumber) },
    { header: 'Decisions', cell: metric('DecisionMoves', formatNumber) },
    { header: 'Skill gap', cell: metric('SkillGap', formatNumber) },
    { header: 'Value of the start (solver)', cell: (v) => solverCell(v.solver), wrap: true },
  );
  return columns.filter((c) => c.always || variants.some((v) => c.cell(v) !== null));
}

function studyTable(study, results) {
  const variants = Array.isArray(results.variants) ? results.variants : [];
  const columns = studyColumns(variants);
  const section = document.createDocumentFragment();
  // The table's title above its box, so that it stays in view while the table scrolls.
  const titleId = `study-${study.id}-variants`;
  const title = document.createElement('h3');
  title.id = titleId;
  title.className = 'table-title';
  const intervals = variants.some((v) => Array.isArray(v.win_rates) && v.win_rates.length);
  title.textContent = intervals ? 'Variants, with 95% intervals below each value' : 'Variants';
  const wrap = document.createElement('div');
  wrap.className = 'table-scroll';
  // Focusable so that a table wider than the screen scrolls from the keyboard.
  wrap.tabIndex = 0;
  wrap.setAttribute('role', 'region');
  wrap.setAttribute('aria-label', `Variants of ${study.title}`);
  const table = document.createElement('table');
  table.className = 'study-table';
  table.setAttribute('aria-labelledby', titleId);
  const head = document.createElement('tr');
  // Play next to the variant's name, in view without scrolling the table on a phone.
  for (const text of ['Variant', 'Play', ...columns.map((c) => c.header)]) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = text;
    head.appendChild(th);
  }
  const thead = document.createElement('thead');
  thead.appendChild(head);
  const tbody = document.createElement('tbody');
  for (const v of variants) {
    const tr = document.createElement('tr');
    tr.dataset.ruleset = v.ruleset;
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = v.label || v.ruleset;
    const cell = document.createElement('td');
    const play = document.createElement('button');
    play.type = 'button';
    play.className = 'play-variant';
    play.textContent = 'Play';
    play.setAttribute('aria-label', `Play ${v.label || v.ruleset} against the computer`);
    play.addEventListener('click', () => playVariant(v.ruleset, play));
    cell.appendChild(play);
    tr.append(th, cell);
    for (const c of columns) {
      const td = document.createElement('td');
      if (c.wrap) td.className = 'wrap';
      const content = c.cell(v);
      if (content === null) {
        td.textContent = '—';
        td.classList.add('missing');
      } else {
        td.append(content);
      }
      tr.appendChild(td);
    }
    tbody.appendChild(tr);
  }
  table.append(thead, tbody);
  wrap.appendChild(table);
  section.append(title, wrap);
  return section;
}

function studyArticle(study) {
  const article = document.createElement('article');
  article.className = 'study';
  article.id = `study-${study.id}`;
  const titleId = `study-${study.id}-title`;
  article.setAttribute('aria-labelledby', titleId);
  const title = document.createElement('h2');
  title.id = titleId;
  title.textContent = study.title;
  const summary = document.createElement('p');
  summary.className = 'summary';
  summary.textContent = study.summary;
  article.append(title, summary);
  if (study.charts.length) {
    const charts = document.createElement('div');
    charts.className = 'charts';
    for (const chart of study.charts) {
      const figure = document.createElement('figure');
      figure.className = 'chart';
      const img = document.createElement('img');
      img.src = `/variants/${encodeURIComponent(study.id)}/${encodeURIComponent(chart.file)}`;
      img.alt = chart.caption;
      img.loading = 'lazy';
      const caption = document.createElement('figcaption');
      caption.textContent = chart.caption;
      figure.append(img, caption);
      charts.appendChild(figure);
    }
    article.appendChild(charts);
  }
  return article;
}

/** Fills a study's article with its results: the command and the table of its variants. */
function showResults(article, study, results) {
  const command = document.createElement('div');
  command.className = 'command';
  const label = document.createElement('p');
  label.className = 'command-label';
  label.textContent = 'Made with';
  const pre = document.createElement('pre');
  const code = document.createElement('code');
  code.textContent = results.command || '';
  pre.appendChild(code);
  command.append(label, pre);
  const report = document.createElement('p');
  const link = document.createElement('a');
  link.href = `/variants/${encodeURIComponent(study.id)}/report.html`;
  link.textContent = `The full report: ${study.title}`;
  report.appendChild(link);
  // The command after the summary, the table after the charts.
  article.querySelector('.summary').after(command);
  article.append(studyTable(study, results), report);
}

/** One click on a variant's Play: a game of it against the game's default opponent. */
async function playVariant(ruleset, button) {
  showMessage('');
  button.disabled = true;
  try {
    await loadRulesets();
    const name = ruleset.split('(')[0].trim();
    const r = page.rulesets.find((x) => x.name === name);
    if (!r) throw new Error(`this server has no game ${name}`);
    // A null seat: the server's strongest player for this very ruleset.
    const created = await api('POST', '/api/games', { body: { ruleset, seats: ['human', null] } });
    const tokens = created.seats.filter((s) => s.token).map((s) => s.token);
    location.assign(playLink(created.id, tokens));
  } catch (err) {
    showMessage(`The game could not be created: ${err.message}`);
    button.disabled = false;
  }
}

async function showVariants() {
  $('setup').hidden = true;
  $('game').hidden = true;
  $('variants').hidden = false;
  $('nav-variants').setAttribute('aria-current', 'page');
  document.title = 'Qasab — Variants';
  const section = $('variants');
  const status = $('variants-status');
  status.textContent = 'Loading the studies…';
  let studies;
  try {
    studies = await api('GET', '/api/variants');
  } catch (err) {
    status.textContent = '';
    showMessage(`The studies could not be loaded: ${err.message}`);
    section.dataset.state = 'error';
    return;
  }
  const list = $('study-list');
  list.replaceChildren();
  status.textContent = studies.length ? '' : 'No study is published on this server yet.';
  const loads = studies.map(async (study) => {
    const article = studyArticle(study);
    list.appendChild(article);
    try {
      const results = await api('GET', `/api/variants/${encodeURIComponent(study.id)}`);
      showResults(article, study, results);
    } catch (err) {
      const p = document.createElement('p');
      p.className = 'error-note';
      p.textContent = `The results of this study could not be loaded: ${err.message}`;
      article.appendChild(p);
    }
  });
  await Promise.all(loads);
  section.dataset.state = 'ready';
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

const heldSeats = () => Object.keys(page.tokens);

function myTurnToken(view) {
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
function isMine(a) {
  return Boolean(a && a.actor !== 'chance' && page.tokens[a.seat]);
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

async function play(action) {
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

function setStatus(text) {
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
  const mine = t.winner && page.tokens[t.winner] && heldSeats().length === 1 ? ' — you win!' : '';
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
    addInfo(dl, s.seat, `${s.player === 'human' ? (page.tokens[s.seat] ? (heldSeats().length > 1 ? 'person' : 'you') : 'person') : s.player}`);
    if (d.kind === 'tab') {
      addInfo(dl, `${s.seat} captured`, `${view.scores[i]}; on board ${d.on_board[i]} (${d.unconverted[i]} unconverted)${d.removed[i] ? `, lost to reductions ${d.removed[i]}` : ''}`);
    } else {
      addInfo(dl, `${s.seat} captured`, String(view.scores[i]));
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
  b.addEventListener('click', () => showIndex(a.index + 1));
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

/** The board's buttons (squares or pits that can be picked), in drawing order. */
const boardButtons = () => [...$('board').querySelectorAll('[role=button]')];
const nameOf = (g) => g.dataset.square ?? g.dataset.pit;

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
      onPick(name);
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
  if (scrolls) {
    board.setAttribute('tabindex', '0');
    board.setAttribute('role', 'region');
    board.setAttribute('aria-label', 'Board (scrolls sideways)');
  } else {
    board.removeAttribute('tabindex');
    board.removeAttribute('role');
    board.removeAttribute('aria-label');
  }
}

function boardKeys(e) {
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

function render() {
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

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

const sameAction = (a, b) => Boolean(a && b && a.index === b.index && a.actor === b.actor && a.action === b.action);

/** Reads the game's actions from `start` to `end` into `page.actions`. */
async function fetchActions(start, end) {
  page.actions.length = Math.min(page.actions.length, start);
  while (page.actions.length < end) {
    const from = page.actions.length;
    const limit = Math.min(1000, end - from);
    const got = await api('GET', `/api/games/${page.id}/actions?from=${from}&limit=${limit}`);
    if (!got.actions.length) break;
    page.actions.push(...got.actions);
  }
}

/**
 * Takes in a view of the game: from the WebSocket (`socket`: its actions are those the socket
 * had not sent, from `actions_from`), an answer (`http`, `undo`) or a poll (`poll`). Views are
 * taken one at a time, in the order they come.
 */
function receive(view, source) {
  page.queue = page.queue
    .then(() => take(view, source))
    .catch((err) => showMessage(`The game could not be updated: ${err.message}`));
  return page.queue;
}

async function take(view, source) {
  const old = page.live;
  const from = view.actions_from ?? 0;
  const delta = view.actions || [];
  if (source === 'http' || source === 'undo') page.answers++;
  if (old && view.index < old.index && source !== 'undo' && source !== 'poll') {
    // An answer older than a frame already taken, or a frame behind an answer: nothing new,
    // unless the game was taken back meanwhile (then the frame's actions differ).
    if (source === 'http') return;
    if (delta.length && delta.every((a, k) => sameAction(page.actions[from + k], a))) return;
  }
  if (page.actions.length < from) await fetchActions(page.actions.length, from);
  let cut = page.actions.length;
  for (let k = 0; k < delta.length; k++) {
    if (!sameAction(page.actions[from + k], delta[k])) {
      cut = Math.min(cut, from + k);
      break;
    }
  }
  if (from + delta.length < page.actions.length) cut = Math.min(cut, from + delta.length);
  page.actions.length = Math.min(page.actions.length, from);
  page.actions.push(...delta);
  // The shown state is gone if the actions before it changed.
  const back = Boolean(old) && (view.index < old.index || (page.shown && cut < page.shown.index));
  const changed = !old || old.index !== view.index || JSON.stringify(old.turn) !== JSON.stringify(view.turn);
  page.live = view;
  if (changed) {
    page.selected = null;
    hideHints();
  }
  if (source === 'undo') page.following = true;
  if (back) {
    page.generation++;
    if (page.following) page.shown = view;
  } else if (page.following) {
    if (!page.shown || view.index <= page.shown.index || page.pace === 0 || view.index - page.shown.index > 60) {
      page.shown = view;
    } else {
      stepTowardsLive();
    }
  }
  render();
}

/**
 * Shows the states between the one shown and the live one, one at a time: another's action
 * `pace` ms after the one before, a decision of this page at once.
 */
async function stepTowardsLive() {
  if (page.stepping) return;
  page.stepping = true;
  const generation = page.generation;
  const current = () => page.following && page.generation === generation;
  try {
    while (current() && page.shown.index < page.live.index) {
      const live = page.live;
      let next = page.shown.index + 1;
      // A state that a decision of this page follows at once is not worth a pause.
      while (next < live.index && isMine(page.actions[next])) next++;
      const wait = isMine(page.actions[next - 1]) || page.pace === 0
        ? 0
        : Math.max(0, page.lastStep + page.pace - Date.now());
      const state = next === live.index ? live : api('GET', `/api/games/${page.id}/states/${next}`);
      const [view] = await Promise.all([state, sleep(wait)]);
      if (!current() || page.shown.index >= next) break;
      page.shown = view;
      page.lastStep = Date.now();
      render();
    }
  } catch {
    if (current()) page.shown = page.live;
  } finally {
    page.stepping = false;
    if (current() && page.shown.index < page.live.index) stepTowardsLive();
    else render();
  }
}

async function showIndex(index) {
  const live = page.live;
  if (!live) return;
  const i = Math.max(0, Math.min(index, live.index));
  try {
    const view = i === live.index ? live : await api('GET', `/api/games/${page.id}/states/${i}`);
    page.following = i === page.live.index;
    page.shown = page.following ? page.live : view;
    page.selected = null;
    hideHints();
    render();
  } catch (err) {
    showMessage(`That position could not be shown: ${err.message}`);
  }
}

async function refresh() {
  const seen = page.answers;
  const view = await api('GET', `/api/games/${page.id}`);
  // An answer to this page's own action taken meanwhile is newer.
  if (seen !== page.answers) return;
  const live = page.live;
  if (!live || live.index !== view.index || JSON.stringify(live.turn) !== JSON.stringify(view.turn)
      || live.can_undo !== view.can_undo || live.hints !== view.hints) {
    await receive(view, 'poll');
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
    let msg = null;
    try {
      msg = JSON.parse(e.data);
    } catch {
      // Not a frame of the contract: ignored.
    }
    if (msg && msg.type === 'state' && msg.state) receive(msg.state, 'socket');
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

async function showGame(id) {
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

function stepKeys(e) {
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
