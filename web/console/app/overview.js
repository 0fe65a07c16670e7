// The cluster at a glance: GPUs busy and free, nodes drained, jobs by state, queues borrowing.
import { JOB_STATES, percent } from './format.js';
import { html } from './lib.js';
import { usePoll } from './poll.js';
import { borrowed } from './queues.js';
import { ErrorBanner, Loading } from './widgets.js';

const Stat = ({ id, label, value, note }) => html`
  <div class="stat" id=${id}><div class="value">${value}</div><div class="label">${label}</div>
    ${note && html`<div class="note">${note}</div>`}</div>`;

export function Overview({ queues }) {
  const { data, error } = usePoll(['/v1/nodes', '/v1/jobs']);
  if (!data) return html`<section class="card"><${ErrorBanner} error=${error} />${!error && html`<${Loading} what="the cluster" />`}</section>`;
  const [{ nodes }, { jobs }] = data;
  const gpus = nodes.reduce((s, n) => s + n.gpus, 0);
  const free = nodes.reduce((s, n) => s + n.free_gpus, 0);
  const byState = Object.fromEntries(JOB_STATES.map((s) => [s, jobs.filter((j) => j.state === s).length]));
  const lending = (queues || []).filter((q) => borrowed(q) > 0);
  return html`
    <section class="card" id="overview">
      <h2>Cluster</h2>
      <${ErrorBanner} error=${error} />
      <div class="stats">
        <${Stat} id="stat-gpus" label="GPUs busy" value=${`${gpus - free} / ${gpus}`} note=${percent(gpus - free, gpus)} />
        <${Stat} id="stat-nodes" label="nodes" value=${nodes.length} note=${`${nodes.filter((n) => n.drained).length} drained`} />
        ${JOB_STATES.map((s) => html`<${Stat} id=${`stat-${s}`} label=${`jobs ${s}`} value=${byState[s]} />`)}
        <${Stat} id="stat-borrowing" label="queues borrowing" value=${lending.length}
          note=${lending.map((q) => q.name).join(', ')} />
      </div>
      <p class="note">Jobs counted are those this token may see.</p>
    </section>`;
}
