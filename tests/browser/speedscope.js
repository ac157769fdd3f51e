// `iprof export --format speedscope` in speedscope's own web app (the
// speedscope npm package's dist/release), run by run.py:
//   node speedscope.js EXPORT.json...
// A small Node server on 127.0.0.1 (a free port) serves the app and the
// exports; the page opens index.html#profileURL=<the export's URL>, which
// makes speedscope fetch and import it. speedscope draws its flame charts
// on a canvas, so the checks read what it puts in the DOM:
//   - the page title "<profile name> - speedscope" (the import worked);
//   - the flame chart: a screenshot has the chart's colours, and hovering
//     down the left edge of the "Left Heavy" chart (heaviest stacks on the
//     left) shows speedscope's hover tooltip, a DOM element reading
//     "WEIGHT (PERCENT) NAME", with each frame of the heaviest stack;
//   - the "Sandwich" view (key 3): a DOM table of every frame sorted by
//     self weight; its first row is the hottest frame, computed here from
//     the export (most self weight), with that weight.
// Requests anywhere but 127.0.0.1 are aborted and fail the test.
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');
const { launch, check, finish, pixelStats } = require('./common');

const deps = process.env.BROWSER_DEPS || path.join(__dirname, 'node_modules');
const outDir = process.env.BROWSER_OUT || process.cwd();
const appDir = path.join(deps, 'speedscope', 'dist', 'release');
const exportsGiven = process.argv.slice(2).map(p => path.resolve(p));

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
                '.json': 'application/json', '.woff2': 'font/woff2', '.png': 'image/png',
                '.ico': 'image/x-icon', '.wasm': 'application/wasm', '.txt': 'text/plain' };

function serve() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    let file;
    const m = /^\/profiles\/(\d+)\.json$/.exec(url.pathname);
    if (m) file = exportsGiven[+m[1]];
    else file = path.join(appDir, path.normalize(url.pathname === '/' ? '/index.html' : url.pathname));
    if (!file || !file.startsWith(m ? file : appDir)) { res.writeHead(403); res.end(); return; }
    fs.readFile(file, (err, body) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
      res.end(body);
    });
  });
  return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// The hottest frames of an export: the frames with the most self weight.
function hottest(doc) {
  const frames = doc.shared.frames, p = doc.profiles[0], self = new Map();
  p.samples.forEach((s, i) => {
    const f = s[s.length - 1];
    self.set(f, (self.get(f) || 0) + p.weights[i]);
  });
  let best = -1;
  for (const v of self.values()) best = Math.max(best, v);
  const names = [...self].filter(([, v]) => v === best).map(([f]) => frames[f].name);
  // The heaviest stack, root first, as speedscope's "Left Heavy" view
  // lays it out on the left: the heaviest child (by total) at each level.
  const root = { kids: new Map(), total: 0 };
  p.samples.forEach((s, i) => {
    let n = root;
    n.total += p.weights[i];
    for (const f of s) {
      if (!n.kids.has(f)) n.kids.set(f, { kids: new Map(), total: 0 });
      n = n.kids.get(f);
      n.total += p.weights[i];
    }
  });
  const leftStack = [];
  for (let n = root; n.kids.size;) {
    const [f, k] = [...n.kids].sort((a, b) => b[1].total - a[1].total)[0];
    leftStack.push(frames[f].name);
    n = k;
  }
  return { names, self: best, leftStack };
}

async function sandwichRows(page) {
  return page.evaluate(() => Array.from(document.querySelectorAll('tr'))
    .map(tr => Array.from(tr.querySelectorAll('td')).map(td => td.textContent.trim()))
    .filter(cells => cells.length === 3));
}

async function loadOne(context, port, index, file) {
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  const want = hottest(doc);
  const label = path.basename(file);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  const profileURL = `http://127.0.0.1:${port}/profiles/${index}.json`;
  await page.goto(`http://127.0.0.1:${port}/index.html#profileURL=${encodeURIComponent(profileURL)}`);
  const title = doc.name + ' - speedscope';
  try {
    await page.waitForFunction(t => document.title === t, title, { timeout: 30000 });
  } catch (e) { /* reported below */ }
  check(`${label}: imported (title)`, (await page.title()) === title, await page.title());

  // The flame chart (Left Heavy): a screenshot with the chart's colours,
  // and hovering its leftmost frames names the heaviest stack.
  await page.keyboard.press('2');
  await page.waitForTimeout(500);
  const shot = path.join(outDir, `speedscope-${label.replace(/\.json$/, '')}.png`);
  await page.screenshot({ path: shot });
  const px = await pixelStats(context, shot, {
    white: 'r > 245 && g > 245 && b > 245',
    colour: 'Math.max(r, g, b) - Math.min(r, g, b) > 40',
  });
  console.log(`screenshot ${shot}: ${px.colours} colours, coloured pixels ${px.counts.colour}`);
  check(`${label}: flame chart drawn`, px.colours > 20 && px.counts.colour > px.width * px.height * 0.02,
        JSON.stringify(px));
  // speedscope's flame chart canvas (the lowest large canvas): find the
  // top of its first frame row along the left edge, then hover the middle
  // of each row (speedscope's frames are 20 px high) and read the tooltip.
  const canvases = await page.$$eval('canvas', cs => cs.map(c => {
    const r = c.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height };
  }));
  const main = canvases.filter(c => c.w > 200 && c.h > 200).sort((a, b) => b.y - a.y)[0];
  // The tooltip reads "WEIGHT (PERCENT) NAME", e.g. "10 (56%) A.work".
  const tipAt = async (x, y) => {
    await page.mouse.move(x, y);
    return page.evaluate(() => {
      for (const line of document.body.innerText.split('\n')) {
        const m = /^[\d.,]+\S* \([^)]*\) (.+)$/.exec(line.trim());
        if (m) return m[1];
      }
      return null;
    });
  };
  const seen = [];
  if (main) {
    let y0 = null;
    for (let y = main.y + 1; y < main.y + 100 && y0 === null; y += 2)
      if (await tipAt(main.x + 3, y)) y0 = y;
    for (let y = y0 + 9; y0 !== null && y < main.y + main.h; y += 20) {
      const tip = await tipAt(main.x + 3, y);
      if (!tip) break;
      seen.push(tip);
    }
  }
  // What was seen is a stack of the export (each frame calls the next),
  // from the root down as deep as the heaviest stack goes; with ties
  // speedscope may pick another of the equally heavy children.
  const edges = new Set();
  doc.profiles[0].samples.forEach(s => s.forEach((f, i) => {
    edges.add((i ? doc.shared.frames[s[i - 1]].name : '') + '\n' + doc.shared.frames[f].name);
  }));
  const isStack = seen.length > 0 && seen.every((n, i) => edges.has((i ? seen[i - 1] : '') + '\n' + n));
  check(`${label}: hovering the flame chart walks a stack from the root (${seen.length} frames)`,
        isStack && seen[0] === want.leftStack[0] && seen.length >= Math.min(5, want.leftStack.length),
        JSON.stringify({ seen, want: want.leftStack }));
  if (want.leftStack.length <= 5)
    check(`${label}: it is the heaviest stack`, JSON.stringify(seen) === JSON.stringify(want.leftStack),
          JSON.stringify({ seen, want: want.leftStack }));

  // The sandwich view: its table sorted by self weight.
  await page.keyboard.press('3');
  try {
    await page.waitForFunction(() => Array.from(document.querySelectorAll('tr'))
      .some(tr => tr.querySelectorAll('td').length === 3), null, { timeout: 10000 });
  } catch (e) { /* reported below */ }
  const rows = await sandwichRows(page);
  const first = rows[0] || [];
  check(`${label}: sandwich lists every frame`, rows.length >= Math.min(doc.shared.frames.length, 20),
        `${rows.length} rows`);
  check(`${label}: hottest frame first (${want.names.join(' | ')})`, want.names.includes(first[2]),
        JSON.stringify(first));
  check(`${label}: its self weight`, (first[1] || '').startsWith(String(want.self) + ' ') ||
        (first[1] || '').startsWith(want.self.toLocaleString('en-US') + ' '), JSON.stringify(first));
  await page.screenshot({ path: shot.replace(/\.png$/, '-sandwich.png') });
  check(`${label}: no page errors`, errors.length === 0, errors.join('; '));
  await page.close();
}

(async () => {
  check('speedscope app present', fs.existsSync(path.join(appDir, 'index.html')), appDir);
  const server = await serve();
  const port = server.address().port;
  const { context, close } = await launch({ width: 1200, height: 700 });
  const foreign = [];
  await context.route('**/*', route => {
    const u = new URL(route.request().url());
    if (u.hostname === '127.0.0.1' || u.protocol === 'data:') return route.continue();
    foreign.push(u.href);
    return route.abort();
  });
  for (let i = 0; i < exportsGiven.length; i++)
    await loadOne(context, port, i, exportsGiven[i]);
  check('no requests beyond 127.0.0.1', foreign.length === 0, foreign.join(', '));
  await close();
  server.close();
  finish();
})().catch(e => { console.log('FAIL exception: ' + (e && e.stack || e)); console.log('0 passed, 1 failed'); process.exit(1); });
