// The studies of the rules' variants at `/variants`: each study's charts and the table of its
// variants, from which a game of any variant starts at one click.

import { api, loadRulesets } from './api.js';
import { $, page, playLink, showMessage } from './page.js';

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
 * The columns of a study's table after the variant and its Play button: a header and a cell
 * maker; a cell maker's null is a missing value. Columns that no variant has a value for are
 * left out.
 */
function studyColumns(variants) {
  const seats = (variants.find((v) => Array.isArray(v.seats) && v.seats.length) || {}).seats || [];
  const columns = [
    // A study that only solved (Tihbat's exact values) played no game: no column of zeros.
    { header: 'Games', cell: (v) => (isNumber(v.games) && v.games > 0 ? String(v.games) : null) },
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
  return columns.filter((c) => variants.some((v) => c.cell(v) !== null));
}

/**
 * A ruleset string or label that may break after its `(`, `,` and `=`, so that a long one
 * wraps in its column instead of running under the next.
 */
function breakable(text) {
  const frag = document.createDocumentFragment();
  for (const part of text.split(/(?<=[(,=])/)) {
    if (frag.childNodes.length) frag.appendChild(document.createElement('wbr'));
    frag.append(part);
  }
  return frag;
}

/** The row's header: the variant's label, and its whole ruleset string when that differs. */
function variantHeader(v) {
  const th = document.createElement('th');
  th.scope = 'row';
  th.setAttribute('role', 'rowheader');
  th.className = 'variant';
  const label = v.label || v.ruleset;
  const name = document.createElement('span');
  name.className = 'variant-label';
  name.appendChild(breakable(label));
  th.appendChild(name);
  if (v.ruleset && v.ruleset !== label) {
    const code = document.createElement('code');
    code.className = 'variant-ruleset';
    code.appendChild(breakable(v.ruleset));
    th.append(' ', code);
  }
  return th;
}

/**
 * A cell with its column's name before its content. The name shows only when the table is
 * laid out as cards (on a phone), and is hidden from assistive technology, which reads the
 * column's header.
 */
function labelledCell(header, content, className = '') {
  const td = document.createElement('td');
  td.setAttribute('role', 'cell');
  if (className) td.className = className;
  const name = document.createElement('span');
  name.className = 'cell-label';
  name.setAttribute('aria-hidden', 'true');
  name.textContent = header;
  td.appendChild(name);
  if (content === null) {
    td.append('—');
    td.classList.add('missing');
  } else {
    td.append(content);
  }
  return td;
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
  // Focusable so that a table wider than its box scrolls from the keyboard.
  wrap.tabIndex = 0;
  wrap.setAttribute('role', 'region');
  wrap.setAttribute('aria-label', `Variants of ${study.title}`);
  const table = document.createElement('table');
  table.className = 'study-table';
  // The roles said outright: on a phone the table is laid out as cards, and a browser may
  // drop a table's semantics with its layout.
  table.setAttribute('role', 'table');
  table.setAttribute('aria-labelledby', titleId);
  const head = document.createElement('tr');
  head.setAttribute('role', 'row');
  // Play next to the variant's name, in view without scrolling the table.
  for (const text of ['Variant', 'Play', ...columns.map((c) => c.header)]) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.setAttribute('role', 'columnheader');
    th.textContent = text;
    head.appendChild(th);
  }
  const thead = document.createElement('thead');
  thead.setAttribute('role', 'rowgroup');
  thead.appendChild(head);
  const tbody = document.createElement('tbody');
  tbody.setAttribute('role', 'rowgroup');
  for (const v of variants) {
    const tr = document.createElement('tr');
    tr.setAttribute('role', 'row');
    tr.dataset.ruleset = v.ruleset;
    const play = document.createElement('button');
    play.type = 'button';
    play.className = 'play-variant';
    play.textContent = 'Play';
    play.setAttribute('aria-label', `Play ${v.label || v.ruleset} against the computer`);
    play.addEventListener('click', () => playVariant(v.ruleset, play));
    const cell = document.createElement('td');
    cell.setAttribute('role', 'cell');
    cell.className = 'play';
    cell.appendChild(play);
    tr.append(variantHeader(v), cell);
    for (const c of columns) tr.appendChild(labelledCell(c.header, c.cell(v), c.wrap ? 'wrap' : ''));
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
      const src = `/variants/${encodeURIComponent(study.id)}/${encodeURIComponent(chart.file)}`;
      // The chart at its own size (never wider than the page): a click or a tap opens it full
      // size in a dialog; a link still, to open it alone in a tab.
      const link = document.createElement('a');
      link.href = src;
      link.className = 'chart-open';
      const img = document.createElement('img');
      img.src = src;
      img.alt = chart.caption;
      img.loading = 'lazy';
      const zoom = document.createElement('span');
      zoom.className = 'chart-zoom';
      zoom.textContent = 'Full size';
      link.append(img, zoom);
      link.addEventListener('click', (e) => {
        if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        openChart(src, chart.caption, link);
      });
      const caption = document.createElement('figcaption');
      caption.textContent = chart.caption;
      figure.append(link, caption);
      charts.appendChild(figure);
    }
    article.appendChild(charts);
  }
  return article;
}

/** Opens a chart at its full size in the chart dialog; the focus returns to `opener` after. */
function openChart(src, caption, opener) {
  const dialog = $('chart-dialog');
  $('chart-dialog-title').textContent = caption;
  const img = $('chart-full-img');
  img.alt = caption;
  img.src = src;
  $('chart-file').href = src;
  dialog.addEventListener('close', () => opener.focus(), { once: true });
  dialog.showModal();
  $('chart-full').scrollTo(0, 0);
  $('chart-close').focus();
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

export async function showVariants() {
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
