// The web console in Debian's chromium (headless, via playwright-core) against a live daemon that
// tests/console/console_browser.sh started. Checks, in order:
//   1. GET / without a token shows the login page, and the page makes no API call;
//   2. a bad token, pasted or kept from before, is refused with the daemon's 401 message on the login page;
//   3. an admin logs in, a job submitted through the API appears in the jobs view and finishes;
//   4. a user sees no cancel action on another user's job, and can cancel its own;
// with no console errors (CSP violations included) and no request leaving the daemon's origin.
// Env: URL, ADMIN, ALICE (user), BOB_JOB (a job of bob's, running), SHOTS (screenshot folder),
// BOREAS_CHROMIUM (default /usr/bin/chromium).
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { URL: base, ADMIN, ALICE, BOB_JOB, SHOTS } = process.env;
if (!base || !ADMIN || !ALICE || !BOB_JOB || !SHOTS) {
  console.error('set URL, ADMIN, ALICE, BOB_JOB and SHOTS (tests/console/console_browser.sh does)');
  process.exit(2);
}
const TIMEOUT = 15000;
const failures = [];
const fail = (msg) => failures.push(msg);
const check = (ok, msg) => { if (!ok) fail(msg); };

async function api(token, method, path, body) {
  const res = await fetch(base + path, { method, headers: { Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

function watch(page, apiCalls) {
  // A refused API call is logged by the browser as a failed resource: the steps check those
  // answers themselves (a bad token, a daemon without the logs route); files must load.
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) fail(`console error: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (!r.url().includes('/v1/') && r.status() >= 400) fail(`${r.url()} answered ${r.status()}`);
  });
  page.on('pageerror', (e) => fail(`page error: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith(base)) fail(`request outside the daemon: ${r.url()}`);
    if (r.url().includes('/v1/')) apiCalls.push(r.url());
  });
}

async function login(page, token) {
  await page.goto(base + '/');
  await page.fill('#token', token);
  await page.click('button[type=submit]');
}

async function loginPage(context) {
  const page = await context.newPage();
  const calls = [];
  watch(page, calls);
  const res = await page.goto(base + '/');
  check(res.headers()['content-security-policy']?.includes("script-src 'self'"), 'GET / has no strict CSP');
  await page.waitForSelector('#login #token', { timeout: TIMEOUT });
  check(calls.length === 0, `the login page called the API: ${calls.join(', ')}`);
  await page.fill('#token', 'not-a-token');
  await page.click('button[type=submit]');
  const error = await page.textContent('#login-error', { timeout: TIMEOUT });
  check(/401/.test(error) && /bearer token/.test(error), `bad token: the error says "${error}"`);
  check(await page.evaluate(() => sessionStorage.getItem('boreas.token')) === null, 'a refused token was kept');
  // A token kept from before that the daemon now refuses (revoked, expired): back to the login, saying so.
  await page.evaluate(() => sessionStorage.setItem('boreas.token', 'revoked-token'));
  await page.reload();
  const stale = await page.textContent('#login-error', { timeout: TIMEOUT });
  check(/stored token was refused/.test(stale) && /401/.test(stale), `stale token: the error says "${stale}"`);
  await page.close();
}

const cells = (page, row) => page.$$eval(`${row} td`, (tds) => tds.map((td) => td.textContent.trim()));

// What the views must show, from tests/server/queues.yaml and local.yaml: `capped` is guaranteed
// 2 GPUs and may borrow none, `open` 6 with no limit; 2 nodes of 4 GPUs; bob's job holds 1 GPU.
const VIEW_CHECKS = {
  queues: async (page) => {
    const capped = await cells(page, 'tr[data-queue="capped"]');
    const open = await cells(page, 'tr[data-queue="open"]');
    check(capped[4] === '2' && capped[6] === '0', `queue capped: ${capped.join(' | ')}`);
    check(open[4] === '6' && open[6] === 'unlimited', `queue open: ${open.join(' | ')}`);
  },
  nodes: async (page) => {
    check((await page.$$('li.gpu')).length === 8, 'the nodes view does not show 8 GPUs');
    const held = await page.$$(`li.gpu.busy a[href="#/jobs/${BOB_JOB}"]`);
    check(held.length === 1, `bob's job ${BOB_JOB} is shown on ${held.length} GPUs, not 1`);
  },
  overview: async (page) => {
    const gpus = await page.textContent('#stat-gpus .value');
    check(gpus === '1 / 8', `overview: GPUs busy "${gpus}", expected "1 / 8"`);
  },
};

// The jobs view holds the admin's completed job and bob's running one.
async function filtersWork(page, adminJob) {
  const ids = () => page.$$eval('#jobs tbody tr', (trs) => trs.map((tr) => Number(tr.dataset.job)));
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  await page.selectOption('#filter-state', 'completed');
  check(same(await ids(), [adminJob]), `state=completed shows jobs ${await ids()}`);
  await page.selectOption('#filter-state', '');
  await page.fill('#filter-text', 'BOB');
  check(same(await ids(), [Number(BOB_JOB)]), `search "BOB" shows jobs ${await ids()}`);
  await page.fill('#filter-text', '');
  await page.click('#jobs th:nth-child(1) button');  // by id: descending → ascending
  const ascending = await ids();
  check(same(ascending, [...ascending].sort((a, b) => a - b)) && ascending.length >= 2, `sorted by id: ${ascending}`);
}

async function adminWatchesAJob(context) {
  const page = await context.newPage();
  watch(page, []);
  await login(page, ADMIN);
  await page.waitForSelector('#who', { timeout: TIMEOUT });
  check((await page.textContent('#who')).includes('admin'), 'the header does not name the admin role');
  await page.click('#nav-jobs');
  await page.waitForSelector('#jobs table', { timeout: TIMEOUT });
  const job = await api(ADMIN, 'POST', '/v1/jobs', { command: ['sh', '-c', 'sleep 2'], gpus: 2, queue: 'open',
    name: 'console-e2e' });
  check(job.status === 201, `submit answered ${job.status}: ${JSON.stringify(job.body)}`);
  const row = `tr[data-job="${job.body.id}"]`;
  await page.waitForSelector(row, { timeout: TIMEOUT });
  check((await page.textContent(row)).includes('console-e2e'), 'the new job row does not show its name');
  await page.waitForSelector(`${row}[data-state="running"]`, { timeout: TIMEOUT });
  await page.screenshot({ path: join(SHOTS, 'console-jobs.png') });
  await page.waitForSelector(`${row}[data-state="completed"]`, { timeout: TIMEOUT });
  await filtersWork(page, job.body.id);
  await page.click(`${row} td.name a`);
  await page.waitForSelector('#job[data-state="completed"] #job-history', { timeout: TIMEOUT });
  const history = await page.textContent('#job-history');
  check(/submitted/.test(history) && /started/.test(history) && /completed \(exit 0\)/.test(history),
    `job history: "${history}"`);
  check(/GPUs \d, \d/.test(await page.textContent('#job-placement')), 'the placement names no two GPUs');
  check(await page.$('#action-cancel') === null && await page.$('#job-ended') !== null,
    'a completed job offers cancel or does not say it has ended');
  await page.screenshot({ path: join(SHOTS, 'console-job.png') });
  for (const view of ['queues', 'nodes', 'overview']) {
    await page.click(`#nav-${view}`);
    await page.waitForSelector(`#${view}`, { timeout: TIMEOUT });
    await page.screenshot({ path: join(SHOTS, `console-${view}.png`) });
    await VIEW_CHECKS[view](page);
  }
  await page.close();
}

async function userMayCancelOnlyItsOwn(context) {
  const own = await api(ALICE, 'POST', '/v1/jobs', { command: ['sleep', '30'], queue: 'open', name: 'alice-own' });
  check(own.status === 201, `alice's submit answered ${own.status}`);
  const page = await context.newPage();
  watch(page, []);
  await login(page, ALICE);
  await page.waitForSelector('#who', { timeout: TIMEOUT });
  await page.goto(`${base}/#/jobs/${BOB_JOB}`);
  await page.waitForSelector('#job #job-why', { timeout: TIMEOUT });
  check(await page.$('#job-actions-none') !== null, "alice's view of bob's job does not say she has no actions");
  check(await page.$('#action-cancel') === null && await page.$('#action-checkpoint') === null,
    "alice is offered an action on bob's job");
  await page.goto(`${base}/#/jobs/${own.body.id}`);
  await page.waitForSelector('#job #action-cancel', { timeout: TIMEOUT });
  await page.click('#action-cancel');
  await page.click('#confirm-cancel');
  await page.waitForSelector('#job[data-state="cancelled"]', { timeout: TIMEOUT });
  await page.close();
}

const profile = mkdtempSync(join(tmpdir(), 'boreas-console-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.BOREAS_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1280, height: 800 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
try {
  for (const [name, step] of [['login page', loginPage], ['admin', adminWatchesAJob], ['user', userMayCancelOnlyItsOwn]]) {
    try {
      await step(context);
      console.log(`ok: ${name}`);
    } catch (e) {
      fail(`${name}: ${e.message.split('\n')[0]}`);
    }
  }
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
if (failures.length) {
  failures.forEach((f) => console.error('FAIL: ' + f));
  process.exit(1);
}
console.log('console browser test: ok');
