// Talking to the server: the JSON API, and the lists the page reads once (rulesets, players,
// the API's paths).

import { page } from './page.js';

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export async function api(method, path, { body, token } = {}) {
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

export async function loadRulesets() {
  if (page.rulesets.length === 0) page.rulesets = await api('GET', '/api/rulesets');
  return page.rulesets;
}

// The computer players with their options (GET /api/players); none if the list cannot be
// read, and then no player offers a level.
export async function loadPlayers() {
  if (page.players.length === 0) {
    try {
      page.players = await api('GET', '/api/players');
    } catch {
      page.players = [];
    }
  }
  return page.players;
}

export async function loadPaths() {
  try {
    const doc = await api('GET', '/api/openapi.json');
    page.paths = (doc && doc.paths) || {};
  } catch {
    page.paths = {};
  }
}

export const hasRoute = (path) => Object.prototype.hasOwnProperty.call(page.paths, path);

const rulesetInfos = new Map(); // ruleset string -> promise of its entry (GET /api/rulesets/{ruleset})

/**
 * The entry of one ruleset string, with its options in force: who begins, the strongest player
 * of that exact ruleset. Throws the server's refusal (422) of a ruleset string that is not valid.
 */
export function rulesetInfo(ruleset) {
  if (!rulesetInfos.has(ruleset)) {
    const info = api('GET', `/api/rulesets/${encodeURIComponent(ruleset)}`);
    info.catch(() => rulesetInfos.delete(ruleset));
    rulesetInfos.set(ruleset, info);
  }
  return rulesetInfos.get(ruleset);
}

/** The spec of the strongest computer player of a ruleset string, or null if it is not known. */
export async function strongestOf(ruleset) {
  try {
    return (await rulesetInfo(ruleset)).default_seats[1];
  } catch {
    return null;
  }
}
