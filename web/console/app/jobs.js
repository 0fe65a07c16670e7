// The jobs view: every job the token may see, filtered by state, queue and user, searched by
// name and sorted by any column; polled every 2 s.
import { dateOf, JOB_STATES, jobName } from './format.js';
import { html, useMemo, useState } from './lib.js';
import { usePoll } from './poll.js';
import { ErrorBanner, Loading, StateBadge } from './widgets.js';

const COLUMNS = [
  ['id', 'ID', (j) => j.id],
  ['name', 'Name', (j) => jobName(j)],
  ['state', 'State', (j) => j.state],
  ['queue', 'Queue', (j) => j.request.queue],
  ['owner', 'User', (j) => j.owner],
  ['gpus', 'GPUs', (j) => j.request.gpus],
  ['node', 'Node', (j) => j.node || ''],
  ['submit', 'Submitted', (j) => j.submit_us],
];

function compare(key, dir) {
  const get = COLUMNS.find((c) => c[0] === key)[2];
  return (a, b) => {
    const x = get(a);
    const y = get(b);
    const order = x < y ? -1 : x > y ? 1 : a.id - b.id;
    return dir === 'asc' ? order : -order;
  };
}

function Select({ id, label, value, options, onChange }) {
  return html`
    <label>${label}
      <select id=${id} value=${value} onChange=${(e) => onChange(e.currentTarget.value)}>
        <option value="">all</option>
        ${options.map((o) => html`<option value=${o}>${o}</option>`)}
      </select>
    </label>`;
}

const distinct = (jobs, get) => [...new Set(jobs.map(get))].sort();

export function Jobs() {
  const { data, error } = usePoll(['/v1/jobs']);
  const [filter, setFilter] = useState({ state: '', queue: '', owner: '', text: '' });
  const [sort, setSort] = useState({ key: 'id', dir: 'desc' });
  const jobs = data ? data[0].jobs : [];
  const shown = useMemo(() => jobs
    .filter((j) => (!filter.state || j.state === filter.state) && (!filter.queue || j.request.queue === filter.queue) &&
      (!filter.owner || j.owner === filter.owner) &&
      (!filter.text || jobName(j).toLowerCase().includes(filter.text.toLowerCase())))
    .sort(compare(sort.key, sort.dir)), [jobs, filter, sort]);
  const set = (key) => (value) => setFilter({ ...filter, [key]: value });
  const sortBy = (key) => setSort({ key, dir: sort.key === key && sort.dir === 'asc' ? 'desc' : 'asc' });
  return html`
    <section class="card" id="jobs">
      <h2>Jobs</h2>
      <${ErrorBanner} error=${error} />
      <div class="filters">
        <${Select} id="filter-state" label="State" value=${filter.state} options=${JOB_STATES} onChange=${set('state')} />
        <${Select} id="filter-queue" label="Queue" value=${filter.queue} options=${distinct(jobs, (j) => j.request.queue)} onChange=${set('queue')} />
        <${Select} id="filter-owner" label="User" value=${filter.owner} options=${distinct(jobs, (j) => j.owner)} onChange=${set('owner')} />
        <label>Name <input id="filter-text" type="search" value=${filter.text} placeholder="search"
          onInput=${(e) => set('text')(e.currentTarget.value)} /></label>
        <span class="note">${shown.length} of ${jobs.length} jobs</span>
      </div>
      ${!data && !error ? html`<${Loading} what="jobs" />` : html`
      <table class="jobs-table">
        <thead><tr>${COLUMNS.map(([key, label]) => html`
          <th><button class="sort" onClick=${() => sortBy(key)} aria-sort=${sort.key === key ? sort.dir + 'ending' : 'none'}>
            ${label}${sort.key === key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}</button></th>`)}</tr></thead>
        <tbody>${shown.map((j) => html`
          <tr data-job=${j.id} data-state=${j.state}>
            <td><a href=${`#/jobs/${j.id}`}>${j.id}</a></td>
            <td class="name"><a href=${`#/jobs/${j.id}`}>${jobName(j)}</a></td>
            <td><${StateBadge} state=${j.state} /></td>
            <td>${j.request.queue}</td><td>${j.owner}</td><td class="num">${j.request.gpus}</td>
            <td>${j.node || '–'}</td><td>${dateOf(j.submit_us)}</td>
          </tr>`)}</tbody>
      </table>`}
    </section>`;
}
