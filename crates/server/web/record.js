// Opening a record: the file is imported as a new game, shown from its start.

import { api } from './api.js';
import { playLink, showMessage } from './page.js';

export async function openRecord(file) {
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
