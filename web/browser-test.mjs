// Loads a Boreas report in Debian's chromium (headless, via playwright-core) and checks it:
// no console errors or page errors, no network requests, every chart drawn with a non-empty
// SVG, the comparison table with the expected number of rows. Saves a full-page screenshot.
//   node web/browser-test.mjs REPORT.html EXPECTED_ROWS SCREENSHOT.png PROFILE_DIR
import { chromium } from 'playwright-core';
import { pathToFileURL } from 'node:url';

const [report, expectedRows, screenshot, profile, required = ''] = process.argv.slice(2);
if (!report || !expectedRows || !screenshot || !profile) {
  console.error('usage: node browser-test.mjs REPORT.html EXPECTED_ROWS SCREENSHOT.png PROFILE_DIR');
  process.exit(2);
}
const failures = [];
const fail = (msg) => failures.push(msg);

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
      rows: document.querySelectorAll('#comparison-table tbody tr').length,
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
