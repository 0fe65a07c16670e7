// The queues view: GPUs in use against each queue's guarantee, what it borrows beyond it, and its
// usage over the minutes this page has been polling.
import { html } from './lib.js';
import { series } from './queue-history.js';
import { Bar, ErrorBanner, Loading } from './widgets.js';

export const borrowed = (q) => Math.max(0, q.gpus_in_use - q.guaranteed_gpus);

// A sparkline of GPUs in use, with the guarantee as a dashed line.
function Spark({ queue, top }) {
  const points = series(queue.name);
  const [w, h] = [240, 40];
  if (points.length < 2) return html`<span class="note">collecting…</span>`;
  const t0 = points[0].t;
  const span = Math.max(1, points[points.length - 1].t - t0);
  const y = (v) => h - 2 - ((h - 4) * v) / Math.max(1, top);
  const line = points.map((p) => `${((w * (p.t - t0)) / span).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ');
  return html`
    <svg class="spark" width=${w} height=${h} role="img" aria-label=${`GPUs in use by ${queue.name} over time`}>
      ${queue.guaranteed_gpus > 0 && html`<line class="guarantee" x1="0" x2=${w} y1=${y(queue.guaranteed_gpus)} y2=${y(queue.guaranteed_gpus)} />`}
      <polyline class="usage" points=${line} />
    </svg>`;
}

export function Queues({ queues, error }) {
  if (!queues) return html`<section class="card"><${ErrorBanner} error=${error} /><${Loading} what="queues" /></section>`;
  const top = Math.max(1, ...queues.map((q) => Math.max(q.gpus_in_use, q.guaranteed_gpus)),
    ...queues.flatMap((q) => series(q.name).map((p) => p.v)));
  return html`
    <section class="card" id="queues">
      <h2>Queues</h2>
      <${ErrorBanner} error=${error} />
      <p class="note">GPUs in use against the guarantee (the mark); beyond it a queue borrows idle GPUs of
        others, up to its borrow limit. Over time: since this page opened, one sample every 2 s.</p>
      <table>
        <thead><tr><th>Queue</th><th>Pending</th><th>Running</th><th>GPUs in use</th><th>Guarantee</th>
          <th>Borrowing</th><th>Borrow limit</th><th>Use vs guarantee</th><th>Over time</th></tr></thead>
        <tbody>${queues.map((q) => html`
          <tr data-queue=${q.name}>
            <td>${q.name}</td><td class="num">${q.pending}</td><td class="num">${q.running}</td>
            <td class="num">${q.gpus_in_use}</td><td class="num">${q.guaranteed_gpus}</td>
            <td class=${`num${borrowed(q) > 0 ? ' borrowing' : ''}`}>${borrowed(q)}</td>
            <td class="num">${q.borrow_limit_gpus ?? 'unlimited'}</td>
            <td><${Bar} value=${q.gpus_in_use} max=${top} marker=${q.guaranteed_gpus}
              label=${`${q.gpus_in_use} GPUs in use, ${q.guaranteed_gpus} guaranteed`} /></td>
            <td><${Spark} queue=${q} top=${top} /></td>
          </tr>`)}</tbody>
      </table>
    </section>`;
}
