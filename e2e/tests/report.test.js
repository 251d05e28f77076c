// The report of `qasab study` (report.html): it opens from the file system with no console
// errors and no serious accessibility violation, on a phone and a desktop, and shows the
// table and every chart the study drew.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { cleanup, launch, screenshots, tempDir, watch } from './helpers.js';

const require = createRequire(import.meta.url);
const axePath = require.resolve('axe-core');
const binary = process.env.QASAB_BIN;

let dir;
let browser;

before(async () => {
  dir = tempDir();
  execFileSync(binary, [
    'study', 'tab(columns=7)', '--vary', 'reduction=off,row-entered', '--vary', 'end=elimination,most-captures',
    '--skill', 'greedy,random', '--games', '4', '--seed', '1', '--out', dir,
  ], { stdio: ['ignore', 'ignore', 'inherit'] });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  if (dir) cleanup(dir);
});

test('report.html shows the table and every chart, with no console error and no serious axe violation', async () => {
  const charts = readdirSync(dir).filter((f) => f.endsWith('.svg'));
  assert.ok(charts.length >= 6, charts.join(' '));
  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 900 }]) {
    const problems = [];
    const context = await browser.newContext({ viewport });
    const page = watch(await context.newPage(), problems);
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    assert.equal(await page.locator('table tbody tr').count(), 4);
    assert.equal(await page.locator('figure svg').count(), charts.length);
    assert.match(await page.locator('pre code').textContent(), /^qasab study 'tab\(columns=7\)' --vary reduction=off,row-entered/);
    assert.match(await page.locator('table').textContent(), /reduction=row-entered, end=most-captures/);
    // Every chart links to its own file.
    const links = await page.locator('figure a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual([...links].sort(), [...charts].sort());
    await page.addScriptTag({ path: axePath });
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
    assert.deepEqual(serious, [], `viewport ${viewport.width}`);
    if (viewport.width > 400) await screenshots(page, 'study-report');
    await context.close();
    assert.deepEqual(problems, []);
  }
});
