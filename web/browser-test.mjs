// Loads a Boreas report in Debian's chromium (headless, via playwright-core) at 1,280 px and
// checks it: no console errors or page errors, no network requests, every chart drawn with a
// non-empty SVG, the comparison table with the expected number of policies, nothing wider than the
// page (only the comparison table may scroll, inside its own box), the headline against the
// baseline, and the per-job drill-down showing a job. Saves a full-page screenshot.
//   node web/browser-test.mjs REPORT.html EXPECTED_ROWS SCREENSHOT.png PROFILE_DIR [SECTIONS] [JOB_ID]
import { chromium } from 'playwright-core';
import { pathToFileURL } from 'node:url';

const [report, expectedRows, screenshot, profile, required = '', jobArg = ''] = process.argv.slice(2);
if (!report || !expectedRows || !screenshot || !profile) {
  console.error('usage: node browser-test.mjs REPORT.html EXPECTED_ROWS SCREENSHOT.png PROFILE_DIR');
  process.exit(2);
}
const failures = [];
const fail = (msg) => failures.push(msg);

// Elements that stick out of the 1,280 px page, or SVGs wider than their chart box (a chart box
// scrolling sideways hides part of the chart). Only the comparison table may scroll in its box.
function overflowing(page) {
  return page.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
      (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '') +
      ' in #' + ((e.closest('section') || {}).id || 'page');
    const bad = [];
    if (document.documentElement.scrollWidth > limit) bad.push(`the page scrolls: ${document.documentElement.scrollWidth} px > ${limit} px`);
    for (const e of document.body.querySelectorAll('*')) {
      if (e.closest('.table-scroll') && !e.classList.contains('table-scroll')) continue;
      const r = e.getBoundingClientRect();
      if (r.width > 0 && (r.right > limit + 0.5 || r.left < -0.5)) bad.push(`${name(e)} spans ${Math.round(r.left)}..${Math.round(r.right)} px`);
    }
    for (const c of document.querySelectorAll('.chart')) {
      const svg = c.querySelector('svg');
      if (svg && svg.getBoundingClientRect().width > c.clientWidth + 0.5) {
        bad.push(`${name(c)}: its chart is ${Math.round(svg.getBoundingClientRect().width)} px in a ${c.clientWidth} px box`);
      }
    }
    return bad.slice(0, 12);
  });
}

async function checkHeadline(page, rows) {
  const lines = await page.$$eval('#headline .headline-line', (ls) => ls.map((l) => l.textContent));
  if (rows > 1 && lines.length !== rows - 1) fail(`headline has ${lines.length} lines, expected ${rows - 1}: ${lines}`);
  lines.forEach((l) => { if (!/ vs .+: .*(better|worse|unchanged)/.test(l)) fail(`headline line without a comparison: ${l}`); });
}

async function showJob(page, id) {
  await page.fill('#job-search', String(id));
  await page.click('.job-form button');
  await page.evaluate(() => window.boreasReport.settled().then(() => true));
}

// A job id nobody has says so; the chosen job shows its timeline under every policy.
async function checkDrilldown(page, rows, jobArg) {
  const id = jobArg || (await page.evaluate(() => JSON.parse(document.getElementById('boreas-data').textContent).jobs.default_job));
  await showJob(page, 987654321);
  if (!(await page.$('#job-missing'))) fail('an unknown job id did not say it is not in the page');
  await showJob(page, id);
  const shown = await page.evaluate(() => ({
    title: (document.getElementById('job-title') || {}).textContent,
    policies: document.querySelectorAll('#job-detail .job-policy').length,
    events: [...document.querySelectorAll('#job-detail .job-policy')].map((p) => p.querySelectorAll('li').length),
    marks: document.querySelectorAll('#job-chart svg path, #job-chart svg rect').length,
  }));
  if (shown.title !== `Job ${id}`) fail(`drill-down shows "${shown.title}", expected "Job ${id}"`);
  if (shown.policies !== rows) fail(`drill-down shows ${shown.policies} policies, expected ${rows}`);
  if (shown.events.some((n) => n < 2)) fail(`drill-down lists too few events per policy: ${shown.events}`);
  if (!(shown.marks > 0)) fail('drill-down chart is empty');
  console.log(`drill-down: job ${id}, events per policy ${shown.events.join('/')}`);
}

const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.BOREAS_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1280, height: 900 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = context.pages()[0] || (await context.newPage());
  page.on('console', (m) => { if (m.type() === 'error') fail(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => fail(`page error: ${e.message}`));
  page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) fail(`network request: ${r.url()}`); });

  await page.goto(pathToFileURL(report).href, { waitUntil: 'load' });
  await page.waitForFunction(() => window.boreasReport && window.boreasReport.done === true, null, { timeout: 60000 });
  const result = await page.evaluate(() => {
    const charts = [...document.querySelectorAll('.chart')].map((c) => {
      const svg = c.querySelector('svg');
      const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
      return { section: c.closest('section').id, width: box.width, height: box.height,
        marks: svg ? svg.querySelectorAll('path, rect').length : 0 };
    });
    return {
      charts,
      expectedCharts: window.boreasReport.charts,
      errors: window.boreasReport.errors,
      rows: document.querySelectorAll('#comparison-table [data-policy]').length,
      sections: [...document.querySelectorAll('section.card')].map((s) => s.id),
    };
  });
  result.errors.forEach((e) => fail(`chart error: ${e}`));
  if (result.charts.length !== result.expectedCharts) fail(`${result.charts.length} chart elements, expected ${result.expectedCharts}`);
  if (result.charts.length === 0) fail('no chart rendered');
  result.charts.forEach((c, i) => {
    if (!(c.width > 0 && c.height > 0 && c.marks > 0)) fail(`chart ${i} in #${c.section} is empty: ${JSON.stringify(c)}`);
  });
  // Sections that must hold a chart, not a "no data" note (real simulator runs with queues and physics).
  required.split(',').filter(Boolean).forEach((id) => {
    if (!result.charts.some((c) => c.section === id)) fail(`section #${id} has no chart`);
  });
  if (result.rows !== Number(expectedRows)) fail(`comparison table has ${result.rows} rows, expected ${expectedRows}`);
  (await overflowing(page)).forEach((o) => fail(`wider than the page: ${o}`));
  await checkHeadline(page, Number(expectedRows));
  await checkDrilldown(page, Number(expectedRows), jobArg);
  await page.screenshot({ path: screenshot, fullPage: true });
  console.log(`${report}: ${result.charts.length} charts in sections ${result.sections.join(', ')}; ` +
    `${result.rows} table rows; screenshot ${screenshot}`);
} finally {
  await context.close();
}
if (failures.length) {
  failures.forEach((f) => console.error('FAIL: ' + f));
  process.exit(1);
}
console.log('browser test: ok');
