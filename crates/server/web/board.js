// Draws a game's board in SVG from the view's `drawing` (computed by the server from the
// core). Nothing here knows a rule: which squares can be picked is passed in by render.js, read
// from the legal actions the server sent.
//
// A Tâb board is drawn in real pixels (no scaling), its squares sized to the space there is
// but never below MIN_CELL: a wide board scrolls sideways in its box instead of shrinking, and
// its labels stay at their size. Its legend is the page's, outside the box that scrolls.

const SVG = 'http://www.w3.org/2000/svg';

/** The smallest and largest side of a Tâb square, in CSS pixels. */
export const MIN_CELL = 36;
const MAX_CELL = 72;

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(e);
  return e;
}

function text(parent, x, y, content, cls) {
  const t = el('text', { x, y, class: cls }, parent);
  t.textContent = content;
  return t;
}

// Which seat is drawn light: the first seat (white, south).
function sideClass(seats, owner) {
  return owner === seats[0] ? 'light' : 'dark';
}

/** A unit in words: "white stack of 2, 1 converted, has been in the enemy row". */
export function describeUnit(u) {
  const parts = [];
  if (u.pieces === 1) {
    parts.push(`${u.owner} piece`);
    parts.push(u.unconverted > 0 ? 'not yet converted' : 'converted');
  } else {
    parts.push(`${u.owner} stack of ${u.pieces}${u.dissolved ? ', dissolved' : ''}`);
    const converted = u.pieces - u.unconverted;
    parts.push(converted === u.pieces ? 'all converted' : `${converted} converted`);
  }
  if (u.entered_enemy_row > 0) {
    parts.push(u.pieces === 1 ? 'has been in the enemy row' : `${u.entered_enemy_row} been in the enemy row`);
  }
  if (u.frozen) parts.push('frozen in the enemy row');
  if (u.held) parts.push('may not leave the enemy row');
  return parts.join(', ');
}

const MARK_WORDS = { source: 'can move', selected: 'selected', target: 'move here' };
const LAST_WORDS = { from: 'last move from here', to: 'last move to here' };

/**
 * Gives a square or pit its role and accessible name: a button (with roving focus, see
 * render.js) when it can be picked, an image otherwise.
 */
function label(g, name, mark, onPick) {
  g.setAttribute('aria-label', name);
  const t = el('title', {}, g);
  t.textContent = name;
  if (mark) {
    g.setAttribute('role', 'button');
    g.setAttribute('tabindex', '-1');
    g.addEventListener('click', onPick);
  } else {
    g.setAttribute('role', 'img');
  }
}

/** The words for a square's marks, appended to its name. */
function markWords(mark, last) {
  const words = [];
  if (last) words.push(LAST_WORDS[last]);
  if (mark) words.push(MARK_WORDS[mark]);
  return words.length ? `: ${words.join(', ')}` : '';
}

// Draws a Tâb board. `marks` maps a square name to 'source' | 'selected' | 'target', `last`
// to 'from' | 'to' (the opponent's last move); `onPick(name)` is called for squares in
// `marks`.
function drawTab(container, view, opts) {
  const { marks, last, flipped, onPick } = opts;
  const d = view.drawing;
  const seats = view.seats.map((s) => s.seat);
  const left = 16;
  const top = 4;
  const room = (container.clientWidth || 600) - left - 6;
  const cell = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor(room / d.columns)));
  const width = d.columns * cell + left + 4;
  const height = 4 * cell + top * 2;
  const svg = el('svg', {
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    class: 'tab-board',
    role: 'group',
    'aria-label': `Board of 4 rows and ${d.columns} columns${flipped ? ', turned round' : ''}`,
    'aria-describedby': 'board-help',
    'data-cell': cell,
  });
  const radius = Math.round(cell * 0.3);
  // The texts are drawn over the squares but outside them: a square's name says all they
  // say, and a click on a text reaches the square below.
  const texts = el('g', { class: 'labels', 'aria-hidden': 'true' });
  let rows = d.rows;
  if (flipped) rows = [...rows].reverse().map((row) => [...row].reverse());
  rows.forEach((row, r) => {
    const y = top + r * cell;
    const rowLabel = text(svg, 3, y + cell / 2 + 4, String(row[0].row), 'row-label');
    rowLabel.setAttribute('aria-hidden', 'true');
    row.forEach((sq, c) => {
      const x = left + c * cell;
      const mark = marks.get(sq.name);
      const lastMark = last.get(sq.name);
      const classes = ['square'];
      if (sq.home) classes.push('home', `home-${sideClass(seats, sq.home)}`);
      if (mark) classes.push(mark);
      if (lastMark) classes.push(`last-${lastMark}`);
      const g = el('g', { class: classes.join(' '), 'data-square': sq.name, 'data-row': sq.row }, svg);
      el('rect', { x: x + 1, y: y + 1, width: cell - 2, height: cell - 2, rx: 4, class: 'cell' }, g);
      if (lastMark) {
        el('rect', { x: x + 4, y: y + 4, width: cell - 8, height: cell - 8, rx: 3, class: 'last-mark' }, g);
      }
      text(texts, x + 4, y + 13, sq.name, 'square-name');
      const u = sq.unit;
      let name = `Square ${sq.name}, `;
      if (u) {
        name += describeUnit(u);
        g.setAttribute('data-owner', u.owner);
        g.setAttribute('data-pieces', u.pieces);
        const cx = x + cell / 2 + 2;
        const cy = y + cell * 0.58;
        const side = sideClass(seats, u.owner);
        el('circle', {
          cx, cy, r: radius,
          class: `piece ${side}${u.unconverted > 0 ? ' unconverted' : ''}`,
        }, g);
        if (u.pieces > 1) {
          text(texts, cx, cy + 5, `${u.pieces}${u.dissolved ? '~' : ''}`, `stack-count ${side}`);
        }
        if (u.entered_enemy_row > 0) {
          const tx = cx + radius * 0.7;
          const ty = cy - radius * 1.1;
          el('polygon', {
            points: `${tx},${ty} ${tx + 5},${ty + 8} ${tx - 5},${ty + 8}`,
            class: 'entered-mark',
          }, g);
        }
        if (u.unconverted > 0 && u.unconverted < u.pieces) {
          text(texts, x + 3, y + cell - 4, `${u.unconverted}u`, 'small-mark');
        }
        if (u.frozen || u.held) {
          text(texts, x + cell - 13, y + cell - 4, u.frozen ? '✕' : '↔', 'small-mark');
        }
      } else {
        name += 'empty';
      }
      label(g, name + markWords(mark, lastMark), mark, () => onPick(sq.name));
    });
  });
  svg.appendChild(texts);
  container.replaceChildren(svg);
}

// Draws the four Tihbat pits.
function drawTihbat(container, view, opts) {
  const { marks, last, flipped, onPick } = opts;
  const d = view.drawing;
  const seats = view.seats.map((s) => s.seat);
  const size = 130;
  const pad = 26;
  const svg = el('svg', {
    viewBox: `0 0 ${2 * size + pad * 2} ${2 * size + pad * 2 + 10}`,
    class: 'tihbat-board',
    role: 'group',
    'aria-label': `The four pits${flipped ? ', turned round' : ''}`,
    'aria-describedby': 'board-help',
  });
  const texts = el('g', { class: 'labels', 'aria-hidden': 'true' });
  let rows = d.rows;
  if (flipped) rows = [...rows].reverse().map((row) => [...row].reverse());
  rows.forEach((row, r) => {
    const owner = text(svg, pad + size, r === 0 ? 18 : 2 * size + pad * 2 + 4, `${row[0].owner}`, 'owner-label');
    owner.setAttribute('aria-hidden', 'true');
    row.forEach((pit, c) => {
      const x = pad + c * size;
      const y = pad + r * size;
      const mark = marks.get(pit.name);
      const lastMark = last.get(pit.name);
      const side = sideClass(seats, pit.owner);
      const g = el('g', {
        class: `pit pit-${side}${mark ? ` ${mark}` : ''}${lastMark ? ` last-${lastMark}` : ''}`,
        'data-pit': pit.name,
        'data-counters': pit.counters,
      }, svg);
      el('rect', { x: x + 4, y: y + 4, width: size - 8, height: size - 8, rx: 40, class: 'pit-hole' }, g);
      if (lastMark) {
        el('rect', { x: x + 10, y: y + 10, width: size - 20, height: size - 20, rx: 34, class: 'last-mark' }, g);
      }
      text(texts, x + 16, y + 26, pit.name, 'pit-name');
      const shown = Math.min(pit.counters, 24);
      for (let i = 0; i < shown; i++) {
        const col = i % 6;
        const line = Math.floor(i / 6);
        el('circle', { cx: x + 30 + col * 14, cy: y + 50 + line * 14, r: 5, class: 'counter' }, g);
      }
      text(texts, x + size / 2, y + size - 14, String(pit.counters), 'pit-count');
      const name = `Pit ${pit.name} of ${pit.owner}, ${pit.counters} counter${pit.counters === 1 ? '' : 's'}`;
      const words = mark === 'source' ? ': sow it' : '';
      label(g, name + (lastMark ? ': last move from here' : '') + words, mark, () => onPick(pit.name));
    });
  });
  svg.appendChild(texts);
  container.replaceChildren(svg);
}

/**
 * Draws the board of `view` into `container`. `opts`: `marks` and `last` (maps from a square
 * or pit name), `flipped` (turned round: the second seat's side at the bottom), `onPick`.
 */
export function drawBoard(container, view, opts) {
  const kind = view.drawing && view.drawing.kind;
  if (kind === 'tab') drawTab(container, view, opts);
  else if (kind === 'tihbat') drawTihbat(container, view, opts);
  else {
    const pre = document.createElement('pre');
    pre.textContent = view.board;
    container.replaceChildren(pre);
  }
}

/** A picture of the four sticks of a throw: `whites` of them white side up. */
function sticksPicture(t, cls) {
  const svg = el('svg', { viewBox: '0 0 100 60', class: cls, 'aria-hidden': 'true' });
  for (let i = 0; i < 4; i++) {
    el('rect', { x: 6 + i * 24, y: 6, width: 16, height: 48, rx: 6, class: i < t.whites ? 'stick white' : 'stick black' }, svg);
  }
  return svg;
}

/**
 * Draws the throws of a Tâb view: the last throw (marked as played when no throw is
 * pending), the throws still to play, and the banked tâbs of each seat.
 */
export function drawThrows(sticks, pending, view) {
  const d = view.drawing;
  const t = d.last_throw;
  if (!t) {
    sticks.replaceChildren();
  } else {
    const played = d.pending.length === 0;
    sticks.classList.toggle('played', played);
    const caption = document.createElement('p');
    caption.className = 'throw-caption';
    // The game's description names the throw already ("white throws 2 (itneyn)"): then it
    // is said once.
    const named = `${t.value} (${t.name})`;
    const said = t.description && t.description.includes(named)
      ? t.description
      : `${named}${t.description ? ` — ${t.description}` : ''}`;
    caption.textContent = `Last throw: ${said}${played ? ' (played)' : ''}`;
    sticks.replaceChildren(sticksPicture(t, 'sticks-svg'), caption);
  }
  const items = [];
  const title = document.createElement('span');
  title.className = 'pending-title';
  title.textContent = d.pending.length ? 'To play:' : 'No throw to play';
  items.push(title);
  for (const p of d.pending) {
    const chip = document.createElement('span');
    chip.className = 'chip pending-throw';
    chip.dataset.value = String(p.value);
    chip.append(sticksPicture(p, 'chip-sticks'), `${p.value} (${p.name})`);
    items.push(chip);
  }
  view.seats.forEach((s, i) => {
    if (!d.banked[i]) return;
    const chip = document.createElement('span');
    chip.className = 'chip banked';
    chip.dataset.seat = s.seat;
    chip.textContent = `${s.seat}: ${d.banked[i]} banked tâb${d.banked[i] === 1 ? '' : 's'}`;
    items.push(chip);
  });
  pending.replaceChildren(...items);
}
