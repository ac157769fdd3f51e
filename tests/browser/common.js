// Shared by the browser tests (run by run.py): launching Debian's chromium
// through playwright-core, counting checks, analysing screenshots.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const deps = process.env.BROWSER_DEPS || path.join(__dirname, 'node_modules');
const { chromium } = require(path.join(deps, 'playwright-core'));

// Flags for headless Chromium as root in a sandbox-less container, with
// nothing that reaches the network by itself.
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
               '--disable-background-networking', '--disable-component-update',
               '--disable-sync', '--disable-dev-shm-usage'];

// A fresh profile directory each run; returns {context, close}.
async function launch(viewport) {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iprof-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true, args: FLAGS, viewport,
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

// Checks: check(name, ok, detail) prints "ok NAME" or "FAIL NAME: detail".
const results = { passed: 0, failed: 0 };
function check(name, ok, detail) {
  if (ok) {
    results.passed++;
    console.log('ok   ' + name);
  } else {
    results.failed++;
    console.log('FAIL ' + name + (detail === undefined ? '' : ': ' + detail));
  }
  return ok;
}
function finish() {
  console.log(`${results.passed} passed, ${results.failed} failed`);
  process.exit(results.failed ? 1 : 0);
}

// Pixel statistics of a PNG, decoded by the browser itself (no PNG
// library): {width, height, distinct colours, count of pixels per
// predicate name}.
async function pixelStats(context, pngPath, predicates) {
  const page = await context.newPage();
  const b64 = fs.readFileSync(pngPath).toString('base64');
  const stats = await page.evaluate(async ({ b64, predicates }) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const tests = {};
    for (const k in predicates) tests[k] = new Function('r', 'g', 'b', 'return ' + predicates[k]);
    const counts = {}, colours = new Set();
    for (const k in predicates) counts[k] = 0;
    for (let i = 0; i < d.length; i += 4) {
      const r = d[i], gg = d[i + 1], b = d[i + 2];
      colours.add((r << 16) | (gg << 8) | b);
      for (const k in tests) if (tests[k](r, gg, b)) counts[k]++;
    }
    return { width: c.width, height: c.height, colours: colours.size, counts };
  }, { b64, predicates });
  await page.close();
  return stats;
}

module.exports = { launch, check, finish, pixelStats, results };
