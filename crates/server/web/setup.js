// The new-game screen at `/`: the ruleset and its options, the opponent, and the links to
// share for a game against a friend.

import { api, loadPlayers, loadRulesets, rulesetInfo } from './api.js';
import { $, page, playLink, showMessage } from './page.js';

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
  // The strongest player (the default) is named as such; when it is a whole spec rather than
  // a player's name it has an entry of its own, first. The spec is in the line below.
  const strongest = defaultComputer(r);
  const add = (value, text) => {
    const opt = document.createElement('option');
    opt.value = value;
    opt.textContent = text;
    computer.appendChild(opt);
  };
  if (!computerPlayers(r).includes(strongest)) add(strongest, 'strongest (the default)');
  for (const p of computerPlayers(r)) add(p, p === strongest ? `${p}: strongest (the default)` : p);
  computer.value = strongest;
  $('computer-level').value = 'default';
  const seat = $('my-seat');
  seat.replaceChildren();
  r.seats.forEach((s, i) => {
    const opt = document.createElement('option');
    opt.value = String(i);
    opt.textContent = s;
    seat.appendChild(opt);
  });
  syncLevel();
  describeRuleset();
}

let described = 0; // the last description asked for: an older answer is dropped

/**
 * Says who begins and which computer player plays, for the ruleset with the options chosen:
 * the server's entry for that exact ruleset string (the preset's while the options are its
 * defaults).
 */
async function describeRuleset() {
  const r = currentRuleset();
  const ruleset = rulesetString();
  const asked = ++described;
  let info = r;
  let refused = null;
  if (ruleset !== r.name) {
    try {
      info = await rulesetInfo(ruleset);
    } catch (err) {
      refused = err;
    }
  }
  if (asked !== described) return;
  if (refused) {
    $('begins').textContent = `These options cannot be played together: ${refused.message}`;
    $('computer-spec').textContent = '';
    return;
  }
  const begins = info.begins;
  $('begins').textContent = begins ? `Who begins: ${begins.text}.` : '';
  for (const opt of $('my-seat').options) {
    const name = r.seats[Number(opt.value)];
    opt.textContent = begins && begins.seat === name ? `${name} (moves first)` : name;
  }
  const spec = computerSpec();
  $('computer-spec').textContent = spec === null
    ? `The computer plays ${info.default_seats[1]}, the strongest player for these rules.`
    : `The computer plays ${spec}.`;
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

/** After another player or level: the line naming the computer's spec follows. */
function onComputerChange() {
  syncLevel();
  describeRuleset();
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

export async function showSetup() {
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
  $('computer-player').addEventListener('change', onComputerChange);
  $('computer-level').addEventListener('change', describeRuleset);
  $('option-list').addEventListener('change', describeRuleset);
  for (const radio of document.querySelectorAll('input[name=mode]')) {
    radio.addEventListener('change', () => {
      $('computer-choice').hidden = !$('mode-computer').checked;
    });
  }
  $('setup-form').addEventListener('submit', startGame);
  renderOptions();
  $('nav-rules').hidden = false;
}
