// Following the game: views taken in from answers, the WebSocket or polls, in order; another's
// turn shown step by step; stepping through earlier positions.

import { ApiError, api, hasRoute } from './api.js';
import { $, page, showMessage } from './page.js';
import { hideHints, isMine, render } from './render.js';

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
export function receive(view, source) {
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

export async function showIndex(index) {
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

export async function refresh() {
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

export function startLive() {
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
