// Every metric a Grafana panel or a Prometheus alert queries must be one the daemon exports.
//   node deploy/grafana/check-metrics.mjs SCRAPE.txt SRC_DIR DASHBOARD.json [ALERTS.yml...]
// SCRAPE.txt: a real /metrics answer of `boreas serve`. Families a daemon without an NVIDIA driver
// does not export (GPU telemetry) are taken from the names registered in SRC_DIR/src/server/**/*.cpp
// and said so. Exit 1 naming each panel or alert and the metric it names that nobody exports.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [scrapeFile, srcDir, dashboardFile, ...alertFiles] = process.argv.slice(2);
if (!scrapeFile || !srcDir || !dashboardFile) {
  console.error('usage: node check-metrics.mjs SCRAPE.txt SRC_DIR DASHBOARD.json [ALERTS.yml...]');
  process.exit(2);
}

// Sample names of a family: a histogram is read through _bucket, _sum and _count.
function sampleNames(name, type) {
  return type === 'histogram' ? [name, `${name}_bucket`, `${name}_sum`, `${name}_count`] : [name];
}

function scrapedNames(text) {
  const names = new Set();
  for (const m of text.matchAll(/^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (\w+)$/gm)) sampleNames(m[1], m[2]).forEach((n) => names.add(n));
  return names;
}

function registeredNames(dir) {
  const names = new Set();
  const sources = readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.cpp') && !f.endsWith('_test.cpp'));
  for (const file of sources) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const m of text.matchAll(/\.add\(\s*"([a-zA-Z_:][a-zA-Z0-9_:]*)",[\s\S]*?MetricType::k(\w+)/g)) {
      sampleNames(m[1], m[2].toLowerCase()).forEach((n) => names.add(n));
    }
  }
  return names;
}

const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless',
  'bool', 'offset', 'inf', 'nan']);

// Metric names in a PromQL expression: identifiers that are not functions, keywords, label names
// (inside {} or a by/on list) or Grafana variables.
export function metricNames(expr) {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')       // string literals
    .replace(/\{[^}]*\}/g, '')                  // label matchers
    .replace(/\[[^\]]*\]/g, '')                 // range durations
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '')
    .replace(/\$\{?\w+\}?/g, '');              // Grafana variables
  const names = [];
  for (const m of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*(\s*\()?/g)) {
    const [word, call] = [m[0].replace(/\s*\($/, ''), m[1]];
    if (!call && !PROMQL_WORDS.has(word.toLowerCase()) && !/^\d/.test(word)) names.push(word);
  }
  return names;
}

function dashboardQueries(file) {
  const dashboard = JSON.parse(readFileSync(file, 'utf8'));
  const out = [];
  const walk = (panels) => panels.forEach((p) => {
    if (p.type === 'row') return walk(p.panels || []);
    if (!p.targets || !p.targets.length) out.push({ where: `panel "${p.title}"`, expr: '' });
    (p.targets || []).forEach((t) => out.push({ where: `panel "${p.title}" query ${t.refId}`, expr: t.expr || '' }));
  });
  walk(dashboard.panels || []);
  return out;
}

// `expr:` values of a rules file: one line, or a `|` block of more-indented lines.
function alertQueries(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const out = [];
  let alert = '?';
  for (let i = 0; i < lines.length; i++) {
    const named = lines[i].match(/^\s*-?\s*alert:\s*(\S+)/);
    if (named) alert = named[1];
    const m = lines[i].match(/^(\s*)expr:\s*(.*)$/);
    if (!m) continue;
    let expr = m[2];
    if (expr === '|' || expr === '>') {
      expr = '';
      while (i + 1 < lines.length && (lines[i + 1].trim() === '' || lines[i + 1].search(/\S/) > m[1].length)) expr += lines[++i] + '\n';
    }
    out.push({ where: `alert ${alert} in ${file}`, expr });
  }
  return out;
}

const scraped = scrapedNames(readFileSync(scrapeFile, 'utf8'));
const registered = registeredNames(join(srcDir, 'src', 'server'));
const prometheusOwn = new Set(['up']);
const queries = dashboardQueries(dashboardFile).concat(alertFiles.flatMap(alertQueries));
const failures = [];
const fromSourceOnly = new Set();
let checked = 0;
for (const { where, expr } of queries) {
  const names = metricNames(expr);
  if (!names.length) failures.push(`${where}: no metric in "${expr}"`);
  for (const name of names) {
    checked += 1;
    if (scraped.has(name) || prometheusOwn.has(name)) continue;
    if (registered.has(name)) fromSourceOnly.add(name);
    else failures.push(`${where}: ${name} is not exported by the daemon (not in the /metrics scrape, not registered in src/server)`);
  }
}
console.log(`${queries.length} queries, ${checked} metric references; ${scraped.size} sample names scraped`);
if (fromSourceOnly.size) console.log(`not in this scrape but registered in src/server (absent without a GPU driver): ${[...fromSourceOnly].sort().join(', ')}`);
if (failures.length) {
  failures.forEach((f) => console.error('FAIL: ' + f));
  process.exit(1);
}
console.log('every query names an exported metric: ok');
