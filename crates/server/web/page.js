// The page's shared state and the helpers every screen uses: the element lookup, the
// message line, and the link to a game.

export const $ = (id) => document.getElementById(id);

export const page = {
  rulesets: [],
  players: [], // every computer player with its options, from the API
  strongest: null, // the spec of the strongest player of the game's ruleset, once known
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
  boardPlaced: null, // the game and orientation whose board was last scrolled to its start
  selected: null, // the square or pit picked as the source of a move
  focus: null, // the square or pit that has the board's roving focus
  busy: false,
  pollTimer: null,
  socket: null,
  queue: Promise.resolve(), // views are taken in one at a time, in order
  answers: 0, // answers to this page's own requests taken in (a poll older than one is dropped)
};

export function showMessage(text) {
  const m = $('message');
  if (!text) {
    m.hidden = true;
    m.textContent = '';
    return;
  }
  m.textContent = text;
  m.hidden = false;
}

export function playLink(id, tokens, extra = '') {
  const frag = tokens.map((t) => `token=${t}`).join('&');
  return `/play/${id}${frag || extra ? '#' : ''}${frag}${frag && extra ? '&' : ''}${extra}`;
}

/**
 * A seat's player in words: `person` for a human seat, else the computer with its level or
 * player (`Computer — strongest`, `Computer — mcts, level 3`, `Computer — greedy`). The spec
 * itself is for a details line.
 */
export function playerName(spec, strongest) {
  if (spec === 'human') return 'person';
  if (strongest && spec === strongest) return 'Computer — strongest';
  const m = /^([a-z_-]+)(?:\((.*)\))?$/.exec(spec);
  if (!m) return `Computer — ${spec}`;
  const level = m[2] && /^level=(\d+)$/.exec(m[2]);
  if (level) return `Computer — ${m[1]}, level ${level[1]}`;
  return m[2] ? `Computer — ${m[1]} (${m[2]})` : `Computer — ${m[1]}`;
}
