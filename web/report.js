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

  function draw(card, spec, label) {
    if (label) {
      card.append(el('p', { class: 'chart-label' }, [label]));
    }
    const holder = el('div', { class: 'chart' });
    card.append(holder);
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
    status.charts += 1;
    pending.push(vegaEmbed(holder, full, { actions: false, renderer: 'svg' }).catch((e) => {
      status.errors.push(String(e));
      console.error('chart failed:', e);
    }));
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
  // The best value of a column (every row holding it is highlighted), or null when all tie.
  function bestValue(rows, col, better) {
    const present = rows.map((r) => r.values[col]).filter((v) => v !== null);
    if (!better || present.length < 2 || present.every((v) => v === present[0])) return null;
    return better === 'lower' ? Math.min(...present) : Math.max(...present);
  }

  function comparisonTable() {
    const card = section('compare', 'Policy comparison',
      'one row per policy; the best value of each column is highlighted (lower is better for times, ' +
      'energy, cost, idle GPU-hours and fair-share shortfall; higher for utilization). A dash means the run did not record it.');
    const { columns, rows } = data.table;
    const head = el('tr', {}, [el('th', {}, ['Policy'])].concat(columns.map((c) => el('th', {}, [c.label]))));
    const best = columns.map((c, i) => bestValue(rows, i, c.better));
    const body = rows.map((r, ri) => el('tr', { 'data-policy': r.policy }, [
      el('td', { class: 'policy' }, [el('span', { class: 'swatch', style: 'background:' +
        PALETTE[ri % PALETTE.length] }), r.policy]),
    ].concat(columns.map((c, i) => el('td', best[i] !== null && r.values[i] === best[i] ? { class: 'best' } : {},
      [formatValue(r.values[i], c.format)])))));
    const table = el('table', { class: 'compare', id: 'comparison-table' },
      [el('thead', {}, [head]), el('tbody', {}, body)]);
    card.append(el('div', { class: 'table-scroll' }, [table]));
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
      'them, cost (USD) and energy (kWh). A policy that shifts hours between queues shows here.');
    const rows = data.by_queue;
    if (!rows.length) return note(card, 'No jobs in these runs.');
    const bars = (field, title) => ({
      width: { step: 22 }, height: 200, mark: { type: 'bar' },
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
    draw(card, { data: { values: rows }, hconcat: charts });
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
  [comparisonTable, jctCdf, clusterLoad, queueShare, zones, heatmap, byQueue].forEach((build) => {
    try {
      build();
    } catch (e) {
      status.errors.push(String(e));
      console.error('section failed:', e);
    }
  });
  status.ready = Promise.all(pending).then(() => { status.done = true; });
})();
