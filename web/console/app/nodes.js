// The nodes view: every node's GPUs and the job holding each, plus temperature and power when
// the node JSON carries NVML readings.
import { html } from './lib.js';
import { usePoll } from './poll.js';
import { ErrorBanner, Loading } from './widgets.js';

const TELEMETRY = [['temperature_c', '°C'], ['power_w', 'W'], ['utilization', '%']];

function Gpu({ gpu }) {
  const readings = TELEMETRY.filter(([key]) => typeof gpu[key] === 'number');
  return html`
    <li class=${`gpu ${gpu.busy ? 'busy' : 'free'}`} data-gpu=${gpu.index}>
      <span class="gpu-index">GPU ${gpu.index}</span>
      ${gpu.busy ? html`<a href=${`#/jobs/${gpu.job}`}>job ${gpu.job}</a>` : html`<span class="note">free</span>`}
      ${readings.map(([key, unit]) => html`<span class="reading">${Math.round(gpu[key])} ${unit}</span>`)}
    </li>`;
}

export function Nodes() {
  const { data, error } = usePoll(['/v1/nodes']);
  if (!data) return html`<section class="card"><${ErrorBanner} error=${error} />${!error && html`<${Loading} what="nodes" />`}</section>`;
  const nodes = data[0].nodes;
  return html`
    <section class="card" id="nodes">
      <h2>Nodes and GPUs</h2>
      <${ErrorBanner} error=${error} />
      <div class="nodes">${nodes.map((n) => html`
        <div class="node" data-node=${n.name}>
          <h3>${n.name} <span class="note">${n.gpu_type}, ${n.gpus - n.free_gpus} of ${n.gpus} GPUs busy</span>
            ${n.drained && html`<span class="badge state-failed">drained</span>`}</h3>
          <ul class="gpus">${n.gpu_usage.map((g) => html`<${Gpu} gpu=${g} />`)}</ul>
        </div>`)}</div>
    </section>`;
}
