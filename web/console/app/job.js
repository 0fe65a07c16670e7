// One job: its states over time, placement, why it waits or how it ended, its log tail when the
// daemon serves one (GET /v1/jobs/ID/logs), and the actions the token may take.
import { call } from './api.js';
import { dateOf, duration, jobName } from './format.js';
import { html, useEffect, useState } from './lib.js';
import { mayCancel, mayCheckpoint } from './permissions.js';
import { POLL_MS, usePoll } from './poll.js';
import { ErrorBanner, Loading, StateBadge } from './widgets.js';

function history(job) {
  const rows = [['submitted', job.submit_us]];
  if (job.start_us) rows.push([job.attempts > 1 ? `started (attempt ${job.attempts})` : 'started', job.start_us]);
  if (job.end_us) rows.push([job.exit_code !== undefined ? `${job.state} (exit ${job.exit_code})` : job.state, job.end_us]);
  return rows;
}

function Timeline({ job }) {
  const end = job.end_us || (job.start_us ? Date.now() * 1000 : 0);
  return html`
    <ol class="timeline" id="job-history">
      ${history(job).map(([what, us]) => html`<li><span class="when">${dateOf(us)}</span> ${what}</li>`)}
    </ol>
    <p class="note">Waited ${duration(((job.start_us || Date.now() * 1000) - job.submit_us) / 1e6)}${job.start_us
      ? `, ran ${duration((end - job.start_us) / 1e6)}` : ''}; ${job.restarts} restart(s).</p>`;
}

// A gang across nodes (the Slurm executor) lists each node with its GPUs; one node reads as before.
function Placement({ job }) {
  if (!job.node) return html`<p class="note" id="job-placement">Not placed.</p>`;
  const nodes = job.nodes || [{ node: job.node, gpu_indexes: job.gpu_indexes || [] }];
  return html`<p id="job-placement">${nodes.map((n, i) => html`${i ? '; ' : ''}Node <a href="#/nodes">${n.node}</a>, GPUs ${n.gpu_indexes.join(', ')}`)}</p>`;
}

// The log tail, shown only when the daemon answers 200 (older daemons have no logs route).
function Logs({ id }) {
  const [text, setText] = useState(null);
  useEffect(() => {
    let live = true;
    const tick = () => call(`/v1/jobs/${id}/logs`)
      .then((body) => live && setText(typeof body === 'string' ? body : JSON.stringify(body, null, 2)))
      .catch(() => live && setText(null));
    tick();
    const timer = setInterval(tick, POLL_MS);
    return () => { live = false; clearInterval(timer); };
  }, [id]);
  if (text === null) return null;
  return html`<h3>Log tail</h3><pre class="logs" id="job-logs">${text}</pre>`;
}

const ENDED = ['completed', 'failed', 'cancelled'];

function Actions({ who, job }) {
  const [confirm, setConfirm] = useState('');
  const [result, setResult] = useState(null);
  const act = async (verb) => {
    setConfirm('');
    try {
      await call(`/v1/jobs/${job.id}/${verb}`, { method: 'POST', body: {} });
      setResult({ ok: `${verb} sent` });
    } catch (error) {
      setResult({ error });
    }
  };
  const verbs = [['cancel', mayCancel(who, job)], ['checkpoint', mayCheckpoint(who, job)]].filter(([, ok]) => ok);
  if (!verbs.length && ENDED.includes(job.state)) return html`<p class="note" id="job-ended">The job has ended: no actions.</p>`;
  if (!verbs.length) return html`<p class="note" id="job-actions-none">No actions for ${who.name} (${who.role}) on this job.</p>`;
  return html`
    <div class="actions" id="job-actions">
      ${verbs.map(([verb]) => confirm === verb
        ? html`<button class="danger" id=${`confirm-${verb}`} onClick=${() => act(verb)}>Confirm ${verb}</button>`
        : html`<button id=${`action-${verb}`} onClick=${() => setConfirm(verb)}>${verb[0].toUpperCase() + verb.slice(1)}</button>`)}
      ${result && result.ok && html`<span class="note">${result.ok}</span>`}
      <${ErrorBanner} error=${result && result.error} />
    </div>`;
}

export function Job({ id, who }) {
  const { data, error } = usePoll([`/v1/jobs/${id}`, `/v1/jobs/${id}/why`]);
  if (!data) return html`<section class="card"><${ErrorBanner} error=${error} />${!error && html`<${Loading} what=${`job ${id}`} />`}</section>`;
  const [job, why] = data;
  return html`
    <section class="card" id="job" data-state=${job.state}>
      <h2>Job ${job.id}: ${jobName(job)} <${StateBadge} state=${job.state} /></h2>
      <${ErrorBanner} error=${error} />
      <p>${job.owner} in queue <b>${job.request.queue}</b>, ${job.request.gpus} GPU(s)${job.request.gpu_type ? ` of type ${job.request.gpu_type}` : ''},
        priority ${job.priority}, restart ${job.request.restart}.</p>
      <p class="mono">${job.request.command.join(' ')}</p>
      <${Actions} who=${who} job=${job} />
      <h3>History</h3><${Timeline} job=${job} />
      <h3>Placement</h3><${Placement} job=${job} />
      <h3>Why</h3>
      <p id="job-why">${why.reason || (job.state === 'running' ? 'running' : '–')}${why.kind ? html` <span class="badge">${why.kind}</span>` : ''}</p>
      <${Logs} id=${id} />
    </section>`;
}
