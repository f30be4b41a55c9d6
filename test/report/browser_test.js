// Browser test of coz-report's HTML page in headless Chromium, driven over
// the DevTools protocol on a pipe (--remote-debugging-pipe: NUL-terminated
// JSON on fds 3 and 4), so only node's built-ins are needed.
//
// Checks: one SVG plot per line of the report, no console error or uncaught
// exception, and each sort button reorders the plots exactly as
// `coz-report --sort KEY` ranks them (and differently from one another).
// Saves a screenshot as a test artifact.
//
// usage: node browser_test.js COZ_REPORT CHROMIUM WORKDIR SCREENSHOT.png
'use strict';
const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const [report, chromium, workdir, shot] = process.argv.slice(2);
fs.mkdirSync(workdir, { recursive: true });

// Four lines whose slope, max and min rankings all differ (the program
// speedups are exact: duration_s = 1e9 (1 - y), delta fixed); see
// test_rank.c for the arithmetic.
const curves = {
  'src/a.c:1': [0, 0.4, 0.3, 0.3, 0.3],
  'src/b.c:2': [0, -0.05, -0.1, -0.15, -0.2],
  'src/c.c:3': [0, 0.125, 0.25, 0.375, 0.5],
  'src/d.c:4': [0, 0, 0.1, 0.25, 0.38],
};
let text = '';
for (const [line, ys] of Object.entries(curves))
  ys.forEach((y, k) => {
    text += `experiment\tselected=${line}\tspeedup=${(k * 0.25).toFixed(2)}` +
            `\tduration=${Math.round(1e9 * (1 - y))}\n` +
            `throughput-point\tname=main.c:9\tdelta=10000\n`;
  });
const profile = path.join(workdir, 'browser.coz');
const page = path.join(workdir, 'browser.html');
fs.writeFileSync(profile, text);
execFileSync(report, ['--html', page, profile], { stdio: 'ignore' });
const expected = {};
const keys = ['lower', 'slope', 'max', 'min'];
for (const key of keys) {
  const doc = JSON.parse(execFileSync(report, ['--json', '--sort', key, profile]));
  expected[key] = doc.lines.map(l => `${l.location} ${l.point}`);
}
// The page opens in the report's default order.
const byDefault = JSON.parse(execFileSync(report, ['--json', profile])).sort;

const browser = spawn(chromium, [
  '--headless', '--disable-gpu', '--no-sandbox', '--no-first-run',
  '--remote-debugging-pipe', `--user-data-dir=${path.join(workdir, 'chromium-profile')}`,
  'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
let stderr = '';
browser.stdio[2].on('data', d => { stderr += d; });

let nextId = 1;
const pending = new Map();
const events = [];
let waiters = [];
let buffered = Buffer.alloc(0);
browser.stdio[4].on('data', chunk => {
  buffered = Buffer.concat([buffered, chunk]);
  let nul;
  while ((nul = buffered.indexOf(0)) >= 0) {
    const msg = JSON.parse(buffered.subarray(0, nul).toString('utf8'));
    buffered = buffered.subarray(nul + 1);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      msg.error ? reject(new Error(JSON.stringify(msg.error))) : resolve(msg.result);
    } else if (msg.method) {
      events.push(msg);
      waiters = waiters.filter(w => !(w.method === msg.method && (w.resolve(msg), true)));
    }
  }
});
function send(method, params = {}, sessionId) {
  const id = nextId++;
  const msg = { id, method, params };
  if (sessionId) msg.sessionId = sessionId;
  browser.stdio[3].write(JSON.stringify(msg) + '\0');
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
const waitFor = method => new Promise(resolve => waiters.push({ method, resolve }));

const failures = [];
function check(cond, what) {
  if (!cond) failures.push(what);
}

async function main() {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const s = (m, p) => send(m, p, sessionId);
  await s('Runtime.enable');
  await s('Log.enable');
  await s('Page.enable');
  await s('Emulation.setDeviceMetricsOverride',
          { width: 1400, height: 1000, deviceScaleFactor: 1, mobile: false });
  const loaded = waitFor('Page.loadEventFired');
  await s('Page.navigate', { url: 'file://' + path.resolve(page) });
  await loaded;
  const evaluate = async expr =>
    (await s('Runtime.evaluate', { expression: expr, returnByValue: true })).result.value;
  const order = () => evaluate(
      "Array.from(document.querySelectorAll('section.row')).map(s => s.getAttribute('data-name'))");

  const plots = await evaluate("document.querySelectorAll('section.row svg.plot').length");
  const rows = await evaluate("document.querySelectorAll('section.row').length");
  check(rows === expected.slope.length, `rows ${rows}, report has ${expected.slope.length}`);
  check(keys.includes(byDefault), `default sort ${byDefault} has no button`);
  check(plots === rows, `${plots} SVG plots for ${rows} lines`);
  const initial = await order();
  check(JSON.stringify(initial) === JSON.stringify(expected[byDefault]),
        `initial order ${initial} != ${expected[byDefault]}`);
  const seen = {};
  for (const key of ['max', 'min', 'slope', 'lower']) {
    await evaluate(`document.querySelector('button[data-sort="${key}"]').click()`);
    const now = await order();
    seen[key] = JSON.stringify(now);
    check(seen[key] === JSON.stringify(expected[key]),
          `after clicking ${key}: ${now} != ${expected[key]}`);
    const on = await evaluate("document.querySelector('button.on').getAttribute('data-sort')");
    check(on === key, `button ${key} not highlighted (${on})`);
  }
  check(seen.max !== seen.slope && seen.min !== seen.slope && seen.min !== seen.max,
        'sorting did not change the order');
  const { data } = await s('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true });
  fs.writeFileSync(shot, Buffer.from(data, 'base64'));

  const errors = events.filter(e =>
      e.method === 'Runtime.exceptionThrown' ||
      (e.method === 'Runtime.consoleAPICalled' && ['error', 'assert'].includes(e.params.type)) ||
      (e.method === 'Log.entryAdded' && e.params.entry.level === 'error'));
  for (const e of errors) failures.push('console: ' + JSON.stringify(e.params).slice(0, 300));
  await send('Browser.close').catch(() => {});
}

const timer = setTimeout(() => {
  console.error('browser test timed out; chromium stderr:\n' + stderr.slice(-2000));
  browser.kill('SIGKILL');
  process.exit(1);
}, 90000);
main().then(() => {
  clearTimeout(timer);
  browser.kill();
  if (failures.length) {
    console.error('FAIL:\n  ' + failures.join('\n  '));
    process.exit(1);
  }
  console.log(`browser test: ${expected.slope.length} plots, sorting works, ` +
              `no console errors; screenshot ${shot}`);
  process.exit(0);
}, err => {
  clearTimeout(timer);
  console.error('browser test error: ' + err.stack + '\nchromium stderr:\n' + stderr.slice(-2000));
  browser.kill('SIGKILL');
  process.exit(1);
});
