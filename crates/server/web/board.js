// Draws a game's board in SVG from the view's `drawing` (computed by the server from the
// core). Nothing here knows a rule: which squares can be picked is passed in by app.js, read
// from the legal actions the server sent.

const SVG = 'http://www.w3.org/2000/svg';

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
function sideClass(drawing, seats, owner) {
  return owner === seats[0] ? 'light' : 'dark';
}

function describeUnit(u) {
  const parts = [`${u.owner}: ${u.pieces === 1 ? 'a piece' : `a stack of ${u.pieces}`}`];
  if (u.unconverted > 0) parts.push(`${u.unconverted} not yet converted`);
  if (u.entered_enemy_row > 0) parts.push(`${u.entered_enemy_row} has been in the enemy row`);
  if (u.dissolved) parts.push('dissolved');
  if (u.frozen) parts.push('frozen in the enemy row');
  if (u.held) parts.push('may not leave the enemy row');
  return parts.join(', ');
}

// Makes `g` a focusable button that calls `onPick` on click, Enter or Space.
function pickable(g, label, onPick) {
  g.setAttribute('role', 'button');
  g.setAttribute('tabindex', '0');
  g.setAttribute('aria-label', label);
  g.addEventListener('click', onPick);
  g.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onPick();
    }
  });
}

// Draws a Tâb board. `marks` maps a square name to 'source' | 'selected' | 'target';
// `onPick(name)` is called for squares in `marks`.
function drawTab(container, view, marks, onPick) {
  const d = view.drawing;
  const seats = view.seats.map((s) => s.seat);
  const cell = 56;
  const pad = 16;
  const width = d.columns * cell + pad * 2;
  const height = 4 * cell + pad * 2;
  const svg = el('svg', {
    viewBox: `0 0 ${width} ${height}`,
    class: 'tab-board',
    role: 'group',
    'aria-label': `Board of 4 rows and ${d.columns} columns`,
  });
  // No wider than about 80 pixels a column (set through the CSSOM, which the policy allows).
  svg.style.maxWidth = `${d.columns * 80 + 40}px`;
  d.rows.forEach((row, r) => {
    const rowLabel = text(svg, 4, pad + r * cell + cell / 2 + 4, String(row[0].row), 'row-label');
    rowLabel.setAttribute('aria-hidden', 'true');
    row.forEach((sq, c) => {
      const x = pad + c * cell;
      const y = pad + r * cell;
      const mark = marks.get(sq.name);
      const g = el('g', {
        class: `square${sq.home ? ` home home-${sideClass(d, seats, sq.home)}` : ''}${mark ? ` ${mark}` : ''}`,
        'data-square': sq.name,
      }, svg);
      el('rect', { x: x + 1, y: y + 1, width: cell - 2, height: cell - 2, rx: 4, class: 'cell' }, g);
      text(g, x + 4, y + 12, sq.name, 'square-name');
      const u = sq.unit;
      let label = `square ${sq.name}`;
      if (u) {
        label += `, ${describeUnit(u)}`;
        g.setAttribute('data-owner', u.owner);
        g.setAttribute('data-pieces', u.pieces);
        const cx = x + cell / 2;
        const cy = y + cell / 2 + 4;
        const side = sideClass(d, seats, u.owner);
        el('circle', {
          cx, cy, r: 17,
          class: `piece ${side}${u.unconverted > 0 ? ' unconverted' : ''}`,
        }, g);
        if (u.pieces > 1) {
          text(g, cx, cy + 5, `${u.pieces}${u.dissolved ? '~' : ''}`, `stack-count ${side}`);
        }
        if (u.entered_enemy_row > 0) {
          el('polygon', {
            points: `${cx + 13},${cy - 21} ${cx + 17},${cy - 13} ${cx + 9},${cy - 13}`,
            class: 'entered-mark',
          }, g);
        }
        if (u.unconverted > 0 && u.unconverted < u.pieces) {
          text(g, cx - 16, cy + 20, `${u.unconverted}u`, 'small-mark');
        }
        if (u.frozen || u.held) {
          text(g, cx + 12, cy + 20, u.frozen ? '✕' : '↔', 'small-mark');
        }
      } else {
        label += ', empty';
      }
      const t = el('title', {}, g);
      t.textContent = label;
      if (mark) {
        const what = mark === 'target' ? 'move here' : mark === 'selected' ? 'selected' : 'can move';
        pickable(g, `${label}: ${what}`, () => onPick(sq.name));
      }
    });
  });
  const legend = document.createElement('p');
  legend.className = 'legend';
  legend.textContent = 'Dashed ring: not yet converted (moves only with a tab). Red corner: '
    + 'has been in the enemy row. A number: a stack; ~ a dissolved stack. ✕ frozen in the enemy '
    + 'row; ↔ may not leave it.';
  container.replaceChildren(svg, legend);
}

// Draws the four Tihbat pits.
function drawTihbat(container, view, marks, onPick) {
  const d = view.drawing;
  const seats = view.seats.map((s) => s.seat);
  const size = 130;
  const pad = 26;
  const svg = el('svg', {
    viewBox: `0 0 ${2 * size + pad * 2} ${2 * size + pad * 2 + 10}`,
    class: 'tihbat-board',
    role: 'group',
    'aria-label': 'The four pits',
  });
  d.rows.forEach((row, r) => {
    text(svg, pad + size, r === 0 ? 18 : 2 * size + pad * 2 + 4, `${row[0].owner}`, 'owner-label');
    row.forEach((pit, c) => {
      const x = pad + c * size;
      const y = pad + r * size;
      const mark = marks.get(pit.name);
      const side = sideClass(d, seats, pit.owner);
      const g = el('g', {
        class: `pit pit-${side}${mark ? ` ${mark}` : ''}`,
        'data-pit': pit.name,
        'data-counters': pit.counters,
      }, svg);
      el('rect', { x: x + 4, y: y + 4, width: size - 8, height: size - 8, rx: 40, class: 'pit-hole' }, g);
      text(g, x + 16, y + 26, pit.name, 'pit-name');
      const shown = Math.min(pit.counters, 24);
      for (let i = 0; i < shown; i++) {
        const col = i % 6;
        const line = Math.floor(i / 6);
        el('circle', { cx: x + 30 + col * 14, cy: y + 50 + line * 14, r: 5, class: 'counter' }, g);
      }
      text(g, x + size / 2, y + size - 14, String(pit.counters), 'pit-count');
      const label = `pit ${pit.name} of ${pit.owner}, ${pit.counters} counter${pit.counters === 1 ? '' : 's'}`;
      const t = el('title', {}, g);
      t.textContent = label;
      if (mark) pickable(g, `${label}: sow it`, () => onPick(pit.name));
    });
  });
  container.replaceChildren(svg);
}

export function drawBoard(container, view, marks, onPick) {
  const kind = view.drawing && view.drawing.kind;
  if (kind === 'tab') drawTab(container, view, marks, onPick);
  else if (kind === 'tihbat') drawTihbat(container, view, marks, onPick);
  else {
    const pre = document.createElement('pre');
    pre.textContent = view.board;
    container.replaceChildren(pre);
  }
}

// Draws the four sticks of a throw: `whites` of them white side up.
export function drawSticks(container, t) {
  if (!t) {
    container.replaceChildren();
    return;
  }
  const svg = el('svg', { viewBox: '0 0 100 60', class: 'sticks-svg', 'aria-hidden': 'true' });
  for (let i = 0; i < 4; i++) {
    el('rect', { x: 6 + i * 24, y: 6, width: 16, height: 48, rx: 6, class: i < t.whites ? 'stick white' : 'stick black' }, svg);
  }
  const caption = document.createElement('p');
  caption.className = 'throw-caption';
  caption.textContent = `${t.value} (${t.name})${t.description ? ` — ${t.description}` : ''}`;
  container.replaceChildren(svg, caption);
}
