// The page of `iprof flame --html` in headless Chromium (run by run.py):
//   node flame.js PAGE.html
// on tests/data/flame-small-1.0.0.iprof (18 samples; Main.main 18,
// com.example.App.run 15, com.example.App.work 10 of which 7 self, ...).
// Checks the frames by DOM, a screenshot's pixels (not blank, the frame
// colours of flamegraph's hot palette), the hover tooltip, click zoom
// (the clicked frame takes the full width), reset, search highlighting,
// and that the page makes no request but its own file.
'use strict';
const path = require('path');
const { launch, check, finish, pixelStats } = require('./common');

const pagePath = path.resolve(process.argv[2]);
const outDir = process.env.BROWSER_OUT || path.dirname(pagePath);

// Frame geometry by name: [{left, width}] relative to the chart.
async function frames(page) {
  return page.evaluate(() => {
    const chart = document.getElementById('chart').getBoundingClientRect();
    return Array.from(document.querySelectorAll('#chart .frame')).map(el => {
      const r = el.getBoundingClientRect();
      return { name: el.dataset.name, left: r.left - chart.left, width: r.width,
               cls: el.className, text: el.textContent };
    });
  });
}
const widthOf = (fs, name) => (fs.find(f => f.name === name) || { width: -1 }).width;
const near = (a, b) => Math.abs(a - b) <= 1.5;

(async () => {
  const { context, close } = await launch({ width: 1000, height: 420 });
  const page = await context.newPage();
  const foreign = [];
  page.on('request', r => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) foreign.push(r.url()); });
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  await page.goto('file://' + pagePath);
  await page.waitForSelector('#chart .frame');

  check('title', (await page.title()) === 'flame-small-1.0.0.iprof - flame graph', await page.title());
  const summary = await page.textContent('#summary');
  check('summary', summary === '18 samples in 6 stacks (sampling)', summary);

  // Frames by DOM.
  let fs = await frames(page);
  const names = new Set(fs.map(f => f.name));
  for (const n of ['all', 'Main.main', 'com.example.App.run', 'com.example.App.work',
                   'com.example.App.parse', 'java.lang.String.hashCode',
                   'com.example.App.<init>', '[Ljava.lang.Object;.clone'])
    check('frame ' + n, names.has(n), [...names].join(', '));
  check('frame count', fs.length === 8, fs.length);
  const chartWidth = await page.evaluate(() => document.getElementById('chart').getBoundingClientRect().width);
  check('root full width', near(widthOf(fs, 'all'), chartWidth), widthOf(fs, 'all'));
  check('run is 15/18', near(widthOf(fs, 'com.example.App.run'), chartWidth * 15 / 18),
        widthOf(fs, 'com.example.App.run'));
  check('work is 10/18', near(widthOf(fs, 'com.example.App.work'), chartWidth * 10 / 18),
        widthOf(fs, 'com.example.App.work'));

  // A screenshot: not blank, frames in the hot palette.
  const shot = path.join(outDir, 'flame-small.png');
  await page.screenshot({ path: shot });
  const px = await pixelStats(context, shot, {
    hot: 'r >= 200 && g <= 232 && b <= 60',            // frames (flamegraph.pl's "hot")
    white: 'r > 250 && g > 250 && b > 250',
    dark: 'r < 80 && g < 80 && b < 80',                // text
  });
  const total = px.width * px.height;
  console.log(`screenshot ${shot}: ${px.width}x${px.height}, ${px.colours} colours, ` +
              `hot ${px.counts.hot}, white ${px.counts.white}, dark ${px.counts.dark}`);
  check('screenshot size', px.width === 1000 && px.height === 420, `${px.width}x${px.height}`);
  check('screenshot not blank', px.counts.white < total * 0.95 && px.colours > 50, JSON.stringify(px));
  // 5 full-width-ish rows of 17 px at most: the frames cover some 8% of the page.
  check('screenshot shows frames', px.counts.hot > total * 0.05, px.counts.hot);
  check('screenshot shows names', px.counts.dark > 500, px.counts.dark);

  // Hover: the tooltip shows name, count and percentage.
  await page.hover('#chart .frame[data-name="com.example.App.work"]');
  const tip = await page.evaluate(() => {
    const t = document.getElementById('tooltip');
    return { shown: getComputedStyle(t).display !== 'none', text: t.textContent };
  });
  check('tooltip shown', tip.shown, JSON.stringify(tip));
  check('tooltip text', tip.text === 'com.example.App.work\n10 samples (55.56%), self 7', JSON.stringify(tip.text));
  await page.hover('#chart .frame[data-name="java.lang.String.hashCode"]');
  const tip2 = await page.textContent('#tooltip');
  check('tooltip follows', tip2 === 'java.lang.String.hashCode\n3 samples (16.67%), self 3', JSON.stringify(tip2));
  check('details line', (await page.textContent('#details')).startsWith('java.lang.String.hashCode  3 samples'));

  // Click zooms: the clicked frame takes the full width.
  await page.click('#chart .frame[data-name="com.example.App.run"]');
  fs = await frames(page);
  check('zoom: clicked frame full width', near(widthOf(fs, 'com.example.App.run'), chartWidth),
        widthOf(fs, 'com.example.App.run'));
  check('zoom: child rescaled (10/15)', near(widthOf(fs, 'com.example.App.work'), chartWidth * 10 / 15),
        widthOf(fs, 'com.example.App.work'));
  check('zoom: callers kept, siblings gone', names.size === 8 && widthOf(fs, 'Main.main') > 0 &&
        !fs.some(f => f.name === 'com.example.App.<init>'), fs.map(f => f.name).join(', '));
  const zoomShot = path.join(outDir, 'flame-small-zoomed.png');
  await page.screenshot({ path: zoomShot });
  await page.click('#chart .frame[data-name="com.example.App.work"]');
  fs = await frames(page);
  check('zoom again', near(widthOf(fs, 'com.example.App.work'), chartWidth) &&
        near(widthOf(fs, 'java.lang.String.hashCode'), chartWidth * 3 / 10),
        JSON.stringify(fs.map(f => [f.name, Math.round(f.width)])));
  await page.click('#reset');
  fs = await frames(page);
  check('reset', fs.length === 8 && near(widthOf(fs, 'com.example.App.run'), chartWidth * 15 / 18),
        widthOf(fs, 'com.example.App.run'));

  // Search highlights matches and reports their share.
  await page.fill('#search', 'work');
  fs = await frames(page);
  const matched = fs.filter(f => / match/.test(f.cls)).map(f => f.name);
  check('search highlights', matched.length === 1 && matched[0] === 'com.example.App.work', matched.join(', '));
  check('search share', (await page.textContent('#matched')) === 'matched 55.56%', await page.textContent('#matched'));
  const searchShot = path.join(outDir, 'flame-small-search.png');
  await page.screenshot({ path: searchShot });
  const spx = await pixelStats(context, searchShot, { magenta: 'r > 200 && g < 40 && b > 200' });
  check('search colour in screenshot', spx.counts.magenta > 1000, spx.counts.magenta);
  await page.fill('#search', '/^com\\.example\\.App\\.(run|parse)$/');
  fs = await frames(page);
  check('regex search', fs.filter(f => / match/.test(f.cls)).map(f => f.name).sort().join(',') ===
        'com.example.App.parse,com.example.App.run');
  await page.keyboard.press('Escape');
  fs = await frames(page);
  check('escape clears', !fs.some(f => / match/.test(f.cls)) && (await page.inputValue('#search')) === '');

  check('no network requests', foreign.length === 0, foreign.join(', '));
  check('no page errors', errors.length === 0, errors.join('; '));
  await close();
  finish();
})().catch(e => { console.log('FAIL exception: ' + (e && e.stack || e)); console.log('0 passed, 1 failed'); process.exit(1); });
