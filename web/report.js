// Builds the Boreas report from the JSON in #boreas-data with Vega-Lite (inlined above).
// Each section: a title, a one-line "how to read it", and a chart, or a note saying why not.
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('boreas-data').textContent);
  const PALETTE = ['#2f6fde', '#e4572e', '#17a673', '#a05bd6', '#f2a541', '#29b5c5', '#d6457f', '#6b7a8f'];
  const policies = data.policies.map((p) => p.name);
  const policyScale = { domain: policies, range: PALETTE.slice(0, Math.max(1, policies.length)) };
  const pending = [];
  const status = { charts: 0, errors: [] };
  window.boreasReport = status;

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => node.setAttribute(k, v));
    (children || []).forEach((c) => node.append(c));
    return node;
  }

  function section(id, title, how) {
    const card = el('section', { class: 'card', id: id }, [el('h2', {}, [title])]);
    const p = el('p', { class: 'how' }, [el('b', {}, ['How to read it: ']), how]);
    card.append(p);
    document.getElementById('report').append(card);
    document.getElementById('toc').append(el('a', { href: '#' + id }, [title]));
    return card;
  }

  function note(card, text) {
    card.append(el('p', { class: 'note' }, [text]));
  }

  function chartWidth(card) {
    return Math.max(320, card.clientWidth - 260);
  }

  function draw(card, spec, label, reuse) {
    if (label) {
      card.append(el('p', { class: 'chart-label' }, [label]));
    }
    const holder = reuse || el('div', { class: 'chart' });
    if (!reuse) {
      card.append(holder);
      status.charts += 1;
    }
    const full = Object.assign({
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      config: {
        font: 'Inter, Segoe UI, Helvetica Neue, Arial, sans-serif',
        axis: { labelColor: '#5b6475', titleColor: '#1d2330', gridColor: '#eef1f5', domainColor: '#c7cfdb',
                titleFontWeight: 600 },
        legend: { labelColor: '#1d2330', titleColor: '#5b6475', orient: 'right', labelLimit: 200, titleLimit: 200 },
        view: { stroke: null },
      },
    }, spec);
    const done = vegaEmbed(holder, full, { actions: false, renderer: 'svg' }).catch((e) => {
      status.errors.push(String(e));
      console.error('chart failed:', e);
    });
    pending.push(done);
    return holder;
  }

  // --- formatting ---------------------------------------------------------------------------
  function duration(s) {
    if (s === null || s === undefined) return '–';
    const units = [[86400, 'd'], [3600, 'h'], [60, 'min']];
    for (const [size, unit] of units) {
      if (Math.abs(s) >= size) return (s / size).toFixed(s / size >= 100 ? 0 : 1) + ' ' + unit;
    }
    return s.toFixed(s >= 100 ? 0 : 1) + ' s';
  }
  function formatValue(v, format) {
    if (v === null || v === undefined) return '–';
    if (format === 'duration') return duration(v);
    if (format === 'percent') return (100 * v).toFixed(1) + ' %';
    if (format === 'int') return Math.round(v).toLocaleString('en-US');
    if (format === 'money') return '$' + v.toLocaleString('en-US', { maximumFractionDigits: 0 });
    return v.toLocaleString('en-US', { maximumSignificantDigits: 4 });
  }
  const SECONDS_AXIS = {
    values: [1, 10, 60, 300, 900, 1800, 3600, 7200, 14400, 28800, 86400, 259200, 604800, 2592000],
    labelExpr: "datum.value >= 86400 ? format(datum.value / 86400, '~g') + ' d' : " +
      "datum.value >= 3600 ? format(datum.value / 3600, '~g') + ' h' : " +
      "datum.value >= 60 ? format(datum.value / 60, '~g') + ' min' : format(datum.value, '~g') + ' s'",
  };
  const policyColor = { field: 'policy', type: 'nominal', title: 'Policy', scale: policyScale };
  const hoursAxis = { field: 't', type: 'quantitative', title: 'Time since first submission (h)',
    axis: { tickCount: 12, labelFlush: true } };

  // --- sections -----------------------------------------------------------------------------
  // Values compare as the reader sees them: 1.4999 and 1.5 both print "1.5" and tie.
  function shownValues(rows, col, format) {
    return rows.map((r) => formatValue(r.values[col], format));
  }

  // The shown value of the best rows of a column, or null when it has no direction or no winner.
  function bestShown(rows, col, column) {
    const present = rows.map((r) => r.values[col]).filter((v) => v !== null);
    if (!column.better || present.length < 2) return null;
    const best = column.better === 'lower' ? Math.min(...present) : Math.max(...present);
    return formatValue(best, column.format);
  }

  function comparisonTable() {
    const card = section('compare', 'Policy comparison',
      'one row per policy (one column per policy when there are many measures); only measures where the policies ' +
      'differ are shown, and in each the best value is highlighted (lower is better for times, energy, cost, idle GPU-hours, quota violations and fair-share shortfall; ' +
      'higher for utilization). A dash means the run did not record it.');
    const { columns, rows } = data.table;
    const same = [];
    const shown = [];
    columns.forEach((c, i) => {
      const values = shownValues(rows, i, c.format);
      if (rows.length > 1 && values.every((v) => v === values[0])) same.push(`${c.label} ${values[0]}`);
      else shown.push(i);
    });
    const best = columns.map((c, i) => bestShown(rows, i, c));
    const cell = (r, i) => {
      const text = formatValue(r.values[i], columns[i].format);
      return el('td', best[i] !== null && text === best[i] ? { class: 'best' } : {}, [text]);
    };
    const swatch = (ri) => el('span', { class: 'swatch', style: 'background:' + PALETTE[ri % PALETTE.length] });
    // Up to WIDE_TABLE columns: one row per policy. More: one row per measure and a column per
    // policy, so the table fits the page instead of scrolling sideways.
    const WIDE_TABLE = 9;
    const table = shown.length <= WIDE_TABLE
      ? el('table', { class: 'compare', id: 'comparison-table' }, [
        el('thead', {}, [el('tr', {}, [el('th', {}, ['Policy'])].concat(shown.map((i) => el('th', {}, [columns[i].label]))))]),
        el('tbody', {}, rows.map((r, ri) => el('tr', { 'data-policy': r.policy },
          [el('td', { class: 'policy' }, [swatch(ri), r.policy])].concat(shown.map((i) => cell(r, i))))))])
      : el('table', { class: 'compare transposed', id: 'comparison-table' }, [
        el('thead', {}, [el('tr', {}, [el('th', {}, ['Measure'])].concat(rows.map((r, ri) =>
          el('th', { 'data-policy': r.policy, class: 'policy' }, [swatch(ri), r.policy]))))]),
        el('tbody', {}, shown.map((i) => el('tr', {},
          [el('th', { class: 'measure' }, [columns[i].label])].concat(rows.map((r) => cell(r, i))))))]);
    card.append(el('div', { class: 'table-scroll' }, [table]));
    if (same.length) {
      card.append(el('p', { class: 'same', id: 'same-columns' }, [el('b', {}, ['Same for every policy: ']), same.join(' · ')]));
    }
  }

  function headline() {
    const h = data.headline;
    const card = el('section', { class: 'card headline', id: 'headline' });
    document.getElementById('report').append(card);
    if (!h || !h.arms.length) {
      card.append(el('p', { class: 'how' }, ['One policy only, so there is no baseline to compare with.']));
      return;
    }
    card.append(el('p', { class: 'kicker-dark' }, [`Against the baseline ${h.baseline}`]));
    h.arms.forEach((arm) => {
      const line = el('p', { class: 'headline-line', 'data-policy': arm.policy }, [el('b', {}, [`${arm.policy} vs ${h.baseline}: `])]);
      arm.items.forEach((item, k) => {
        if (k) line.append(', ');
        const cls = item.better === true ? 'better' : item.better === false ? 'worse' : 'same';
        line.append(el('span', { class: cls }, [item.text]));
      });
      card.append(line);
      arm.notes.forEach((n) => card.append(el('p', { class: 'headline-note' }, [n])));
    });
  }

  function jctCdf() {
    const card = section('jct-cdf', 'Job completion time distribution (CDF)',
      'for a JCT on the x-axis, the curve gives the share of finished jobs that completed within it; ' +
      'a curve further up and to the left is better. The x-axis is logarithmic.');
    const rows = [];
    data.cdf.forEach((c) => {
      const points = c.points.filter(([x]) => x > 0);
      // The curve starts at 0 % on the shortest JCT, so the first step is drawn too.
      if (points.length) rows.push({ policy: c.policy, jct: points[0][0], share: 0 });
      points.forEach(([x, y]) => rows.push({ policy: c.policy, jct: x, share: y }));
    });
    const unfinished = data.cdf.filter((c) => c.unfinished > 0)
      .map((c) => `${c.policy}: ${c.unfinished} of ${c.jobs}`);
    if (unfinished.length) {
      note(card, `Jobs that never finished are not in the curves (${unfinished.join('; ')}).`);
    }
    if (!rows.length) return note(card, 'No job finished in these runs, so there is no JCT to plot.');
    draw(card, {
      width: chartWidth(card), height: 300, data: { values: rows },
      mark: { type: 'line', interpolate: 'step-after', strokeWidth: 2 },
      encoding: {
        x: Object.assign({ field: 'jct', type: 'quantitative', title: 'Job completion time (log scale)',
          scale: { type: 'log' } }, { axis: SECONDS_AXIS }),
        y: { field: 'share', type: 'quantitative', title: 'Share of finished jobs', axis: { format: '%' } },
        color: policyColor,
        tooltip: [{ field: 'policy' }, { field: 'jct', title: 'JCT (s)', format: ',.0f' },
          { field: 'share', title: 'share', format: '.1%' }],
      },
    });
  }

  function clusterLoad() {
    const card = section('load', 'Allocated GPUs and pending demand',
      'the upper chart shows GPUs held by running jobs (the dotted line is the cluster size); the lower one ' +
      'GPUs requested by jobs still waiting. High allocation with low pending demand means the policy keeps up.');
    const rows = [];
    data.load.forEach((s) => s.points.forEach(([t, a, p]) => rows.push({ policy: s.policy, t: t, allocated: a, pending: p })));
    if (!rows.length) return note(card, 'The runs have no time series samples.');
    const capacity = Math.max(0, ...data.load.map((s) => s.gpus || 0));
    const line = (field, title) => ({
      width: chartWidth(card), height: 200,
      layer: [{ mark: { type: 'line', strokeWidth: 1.5, interpolate: 'step-after' },
        encoding: { x: hoursAxis, y: { field: field, type: 'quantitative', title: title }, color: policyColor,
          tooltip: [{ field: 'policy' }, { field: 't', title: 'hour', format: ',.1f' }, { field: field, format: ',.0f' }] } }],
    });
    const upper = line('allocated', 'Allocated GPUs');
    if (capacity > 0) {
      upper.layer.push({ data: { values: [{ gpus: capacity }] }, mark: { type: 'rule', strokeDash: [2, 3], color: '#8892a3' },
        encoding: { y: { field: 'gpus', type: 'quantitative' } } });
    }
    draw(card, { data: { values: rows }, vconcat: [upper, line('pending', 'Pending GPU demand (GPUs)')] });
  }

  function seriesRows(entries, which) {
    const rows = [];
    entries.forEach((e) => (e[which] || []).forEach(([t, v]) => {
      if (v !== null) rows.push({ policy: e.policy, key: e.key, t: t, v: v });
    }));
    return rows;
  }

  function perPolicy(card, rows, label, build) {
    policies.forEach((p) => {
      const mine = rows.filter((r) => r.policy === p);
      if (mine.length) draw(card, build(mine), label + ' — ' + p);
    });
  }

  function queueShare() {
    const card = section('queue-share', 'GPUs per queue against guarantee',
      'per policy, each colour is a queue: the solid line is the GPUs it holds, the dashed line of the same ' +
      'colour its guaranteed GPUs. A solid line below its dashed line while that queue has pending work is a missed guarantee.');
    const used = seriesRows(data.queue_share, 'main');
    const guaranteed = seriesRows(data.queue_share, 'paired');
    if (!used.length) {
      return note(card, 'These runs have no per-queue GPU columns (gpus:<queue> in timeseries.csv); ' +
        'the simulator writes them when the cluster spec defines queues with guarantees.');
    }
    const all = used.map((r) => Object.assign({ what: 'in use' }, r))
      .concat(guaranteed.map((r) => Object.assign({ what: 'guarantee' }, r)));
    perPolicy(card, all, 'GPUs per queue', (rows) => ({
      width: chartWidth(card), height: 220, data: { values: rows },
      mark: { type: 'line', strokeWidth: 1.6, interpolate: 'step-after' },
      encoding: { x: hoursAxis, y: { field: 'v', type: 'quantitative', title: 'GPUs' },
        color: { field: 'key', type: 'nominal', title: 'Queue' },
        strokeDash: { field: 'what', type: 'nominal', title: 'Line', scale: { domain: ['in use', 'guarantee'], range: [[1, 0], [5, 4]] } },
        tooltip: [{ field: 'key', title: 'queue' }, { field: 'what' }, { field: 't', title: 'hour', format: ',.1f' }, { field: 'v', title: 'GPUs', format: ',.1f' }] },
    }));
  }

  function zones() {
    const card = section('zones', 'Power and temperature per zone',
      'per policy, each colour is a cooling zone: IT power drawn (kW) above, and GPU temperature (°C) below. ' +
      'Peaks that sit on a power cap or near a throttle temperature are where the physics limits the schedule.');
    const power = seriesRows(data.zones, 'main');
    const temp = seriesRows(data.zones, 'paired');
    if (!power.length && !temp.length) {
      return note(card, 'These runs have no per-zone columns (power_kw:<zone>, temp_c:<zone> in timeseries.csv); ' +
        'the simulator writes them when the power and thermal models are enabled.');
    }
    const chart = (rows, title) => ({
      width: chartWidth(card), height: 170, data: { values: rows }, mark: { type: 'line', strokeWidth: 1.5 },
      encoding: { x: hoursAxis, y: { field: 'v', type: 'quantitative', title: title, scale: { zero: false } },
        color: { field: 'key', type: 'nominal', title: 'Zone' },
        tooltip: [{ field: 'key', title: 'zone' }, { field: 't', title: 'hour', format: ',.1f' }, { field: 'v', format: ',.1f' }] },
    });
    policies.forEach((p) => {
      const charts = [];
      const pw = power.filter((r) => r.policy === p);
      const tc = temp.filter((r) => r.policy === p);
      if (pw.length) charts.push(chart(pw, 'IT power (kW)'));
      if (tc.length) charts.push(chart(tc, 'Temperature (°C)'));
      if (charts.length) draw(card, { vconcat: charts }, 'Zones — ' + p);
    });
  }

  function heatmap() {
    const card = section('racks', 'Busy GPUs per rack over time',
      'each row is a rack (read from node names: the part before the last "-"), each column a time bin; ' +
      'darker cells had more GPUs busy on average. Hot rows next to pale ones show where placement packs work.');
    const maps = data.heatmap.filter((h) => h.cells.length);
    if (!maps.length) return note(card, 'The runs have no job runs (runs.csv is empty), so there is nothing to place on racks.');
    // One colour scale and one time axis for every policy, so their heatmaps compare cell by cell.
    const busiest = Math.max(1, ...maps.map((h) => Math.max(...h.cells.map((c) => c[2]))));
    const horizon = Math.max(...maps.map((h) => (1 + Math.max(...h.cells.map((c) => c[1]))) * h.bin_h));
    maps.forEach((h) => {
      if (h.racks_total > h.racks.length) {
        note(card, `${h.policy}: showing the ${h.racks.length} busiest of ${h.racks_total} racks.`);
      }
      const rows = h.cells.map(([r, b, v]) => ({ rack: h.racks[r], t0: b * h.bin_h, t1: (b + 1) * h.bin_h, v: v }));
      draw(card, {
        width: chartWidth(card), height: Math.min(520, Math.max(60, 14 * h.racks.length)), data: { values: rows },
        mark: { type: 'rect' },
        encoding: {
          x: Object.assign({}, hoursAxis, { field: 't0', scale: { domain: [0, horizon], nice: false } }), x2: { field: 't1' },
          y: { field: 'rack', type: 'ordinal', title: 'Rack', sort: h.racks, axis: { labelLimit: 120 } },
          color: { field: 'v', type: 'quantitative', title: 'Busy GPUs (mean)', scale: { scheme: 'blues', domain: [0, busiest] } },
          tooltip: [{ field: 'rack' }, { field: 't0', title: 'from hour', format: ',.1f' }, { field: 'v', title: 'busy GPUs', format: ',.1f' }],
        },
      }, 'Racks — ' + h.policy);
    });
  }

  function byQueue() {
    const card = section('by-queue', 'GPU-hours, cost and energy by queue',
      'bars compare policies within each queue: GPU-hours used (from jobs.csv), and, when the run recorded ' +
      'them, cost (USD) and energy (kWh), one chart under the other. A policy that shifts hours between queues shows here.');
    const rows = data.by_queue;
    if (!rows.length) return note(card, 'No jobs in these runs.');
    const bars = (field, title) => ({
      width: chartWidth(card), height: 180, mark: { type: 'bar' },
      transform: [{ filter: `datum.${field} !== null` }],
      encoding: { x: { field: 'queue', type: 'nominal', title: 'Queue', axis: { labelAngle: -30 } },
        xOffset: { field: 'policy', scale: { domain: policies } },
        y: { field: field, type: 'quantitative', title: title }, color: policyColor,
        tooltip: [{ field: 'policy' }, { field: 'queue' }, { field: field, title: title, format: ',.1f' }] },
    });
    const charts = [bars('gpu_hours', 'GPU-hours')];
    const has = (f) => rows.some((r) => r[f] !== null);
    if (has('cost_usd')) charts.push(bars('cost_usd', 'Cost (USD)'));
    if (has('energy_kwh')) charts.push(bars('energy_kwh', 'Energy (kWh)'));
    if (!has('cost_usd') || !has('energy_kwh')) {
      note(card, 'Cost and energy per queue appear when summary.json has per-queue cost_usd / energy_kwh.');
    }
    draw(card, { data: { values: rows }, vconcat: charts });
  }

  // --- per-job drill-down ---------------------------------------------------------------------
  const JOB = { id: 0, queue: 1, gpus: 2, submit: 3, start: 4, end: 5, wait: 6, preempt: 7, state: 8, reason: 9 };
  const RUN = { id: 0, run: 1, start: 2, end: 3, nodes: 4, gpus: 5, reason: 6 };
  const ENDED = { completed: 'completed', preempted: 'preempted', failed: 'killed by a failure', cancelled: 'cancelled',
    running: 'still running when the run ended' };

  function hoursText(s) {
    return s === null ? '–' : (s / 3600).toLocaleString('en-US', { maximumFractionDigits: 2 }) + ' h';
  }

  // One policy's view of a job: its row, its runs, and the events in time order.
  function jobTimeline(policyData, id) {
    const S = data.jobs.strings;
    const row = policyData.jobs.find((j) => j[JOB.id] === id);
    if (!row) return null;
    const runs = policyData.runs.filter((r) => r[RUN.id] === id);
    const events = [[row[JOB.submit], `submitted to queue ${S[row[JOB.queue]] || '(none)'}, ${row[JOB.gpus]} GPUs`]];
    runs.forEach((r) => {
      events.push([r[RUN.start], `run ${r[RUN.run]} started on ${S[r[RUN.nodes]].split(';').join(', ')} (${r[RUN.gpus]} GPUs)`]);
      events.push([r[RUN.end], `run ${r[RUN.run]} ${ENDED[S[r[RUN.reason]]] || S[r[RUN.reason]]}`]);
    });
    if (!runs.length) events.push([null, 'never started']);
    const reason = S[row[JOB.reason]];
    const why = reason ? `why it waited (the policy's last reason): ${reason}` :
      row[JOB.wait] > 0 ? 'why it waited: this policy records no reason (the boreas policy explains its waits)' : 'it did not wait';
    return { row, runs, events, why, state: S[row[JOB.state]] };
  }

  function jobChartRows(id) {
    const rows = [];
    data.jobs.policies.forEach((p) => {
      const t = jobTimeline(p, id);
      if (!t) return;
      rows.push({ policy: p.policy, what: 'waiting', t0: t.row[JOB.submit] / 3600,
        t1: (t.runs.length ? t.runs[0][RUN.start] : (t.row[JOB.submit] + t.row[JOB.wait])) / 3600 });
      t.runs.forEach((r) => rows.push({ policy: p.policy, what: 'run ' + r[RUN.run] + ' → ' + data.jobs.strings[r[RUN.reason]],
        t0: r[RUN.start] / 3600, t1: r[RUN.end] / 3600 }));
    });
    return rows;
  }

  function showJob(card, detail, id) {
    detail.innerHTML = '';
    const found = data.jobs.policies.map((p) => [p.policy, jobTimeline(p, id)]).filter(([, t]) => t);
    if (!found.length) {
      detail.append(el('p', { class: 'note', id: 'job-missing' }, [`Job ${id} is not in this page. ` +
        (data.jobs.selection === 'all' ? 'The runs have no job with this id.' :
          `The page holds the ${data.jobs.shown} jobs that waited longest; rebuild it with \`boreas report --job ${id}\` ` +
          'to add this one, or read jobs.csv and runs.csv in the run folders.')]));
      return;
    }
    detail.append(el('h3', { id: 'job-title' }, [`Job ${id}`]));
    if (!card.jobHolder) {
      card.jobHolder = el('div', { class: 'chart', id: 'job-chart' });
      status.charts += 1;
    }
    detail.append(card.jobHolder);
    found.forEach(([policy, t]) => {
      const list = el('ol', { class: 'events' }, t.events.map(([at, what]) =>
        el('li', {}, [el('span', { class: 'at' }, [hoursText(at)]), what])));
      detail.append(el('div', { class: 'job-policy', 'data-policy': policy }, [
        el('h4', {}, [`${policy}: ${t.state}, waited ${duration(t.row[JOB.wait])}, ${t.row[JOB.preempt]} preemption` +
          (t.row[JOB.preempt] === 1 ? '' : 's')]),
        list, el('p', { class: 'why' }, [t.why])]));
    });
    draw(detail, {
      width: chartWidth(card), height: Math.max(60, 34 * found.length), data: { values: jobChartRows(id) },
      mark: { type: 'bar', height: 14 },
      encoding: {
        x: { field: 't0', type: 'quantitative', title: 'Time since first submission (h)', scale: { zero: false } },
        x2: { field: 't1' },
        y: { field: 'policy', type: 'nominal', title: null, sort: policies },
        color: { field: 'what', type: 'nominal', title: 'Span' },
        tooltip: [{ field: 'policy' }, { field: 'what' }, { field: 't0', title: 'from hour', format: ',.2f' },
          { field: 't1', title: 'to hour', format: ',.2f' }],
      },
    }, null, card.jobHolder);
  }

  function drilldown() {
    const card = section('job', "One job's timeline",
      'type a job id: per policy, when it was submitted, each run (start, nodes, how it ended), how long it ' +
      'waited and the policy\'s last reason for the wait. Times are hours since the first submission.');
    const jobs = data.jobs;
    if (!jobs || !jobs.policies.some((p) => p.jobs.length)) {
      return note(card, 'These runs have no per-job rows (job_id and submit_s in jobs.csv).');
    }
    note(card, jobs.selection === 'all' ? `All ${jobs.total.toLocaleString('en-US')} jobs are in this page.` :
      `This page holds ${jobs.shown.toLocaleString('en-US')} of ${jobs.total.toLocaleString('en-US')} jobs: those that ` +
      'waited longest under any policy (and any named with `boreas report --job ID`).');
    const input = el('input', { type: 'search', id: 'job-search', placeholder: 'job id', inputmode: 'numeric',
      'aria-label': 'job id' });
    const detail = el('div', { id: 'job-detail' });
    const button = el('button', { type: 'button' }, ['Show']);
    card.append(el('div', { class: 'job-form' }, [el('label', { for: 'job-search' }, ['Job id ']), input, button]), detail);
    const pick = () => {
      const id = Number(input.value.trim());
      if (input.value.trim() !== '' && Number.isInteger(id)) showJob(card, detail, id);
      else detail.replaceChildren(el('p', { class: 'note' }, [`"${input.value}" is not a job id (a whole number).`]));
    };
    button.addEventListener('click', pick);
    input.addEventListener('keydown', (e) => { if (e.key === 'Enter') pick(); });
    if (jobs.default_job >= 0) {
      input.value = String(jobs.default_job);
      showJob(card, detail, jobs.default_job);
    }
  }

  function header() {
    const first = data.policies[0] || {};
    const bits = [`${policies.length} ${policies.length === 1 ? 'policy' : 'policies'}`];
    if (first.cluster) bits.push('cluster ' + first.cluster);
    if (first.trace) bits.push('trace ' + first.trace);
    document.getElementById('subtitle').textContent = bits.join(' · ');
    document.getElementById('footer').innerHTML = '';
    document.getElementById('footer').append(
      `Generated by ${data.generator}. Time series down-sampled to at most ${data.limits.series_points} points, ` +
      `JCT curves to ${data.limits.cdf_points} quantiles; the full data is in the run folders: `,
      el('code', {}, [data.policies.map((p) => p.dir).join(', ')]));
  }

  header();
  [headline, comparisonTable, jctCdf, clusterLoad, queueShare, zones, heatmap, byQueue, drilldown].forEach((build) => {
    try {
      build();
    } catch (e) {
      status.errors.push(String(e));
      console.error('section failed:', e);
    }
  });
  status.ready = Promise.all(pending).then(() => { status.done = true; });
  // Charts drawn later (a job picked in the drill-down) are awaited by settled().
  status.settled = () => Promise.all(pending).then(() => true);
})();
