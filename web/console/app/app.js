// The Boreas web console (docs/console.md): a login, then views of the live daemon, routed by the
// URL's hash (#/overview, #/jobs, #/jobs/ID, #/queues, #/nodes). All data comes from the JSON API.
import { call, token } from './api.js';
import { Job } from './job.js';
import { Jobs } from './jobs.js';
import { html, render, useEffect, useState } from './lib.js';
import { Login } from './login.js';
import { Nodes } from './nodes.js';
import { Overview } from './overview.js';
import { usePoll } from './poll.js';
import { record } from './queue-history.js';
import { Queues } from './queues.js';

const VIEWS = [['overview', 'Overview'], ['jobs', 'Jobs'], ['queues', 'Queues'], ['nodes', 'Nodes']];

function useHash() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return hash.replace(/^#\/?/, '').split('/');
}

function View({ route, who, queues }) {
  const [name, id] = route;
  if (name === 'jobs' && /^\d+$/.test(id || '')) return html`<${Job} id=${id} who=${who} />`;
  if (name === 'jobs') return html`<${Jobs} />`;
  if (name === 'queues') return html`<${Queues} queues=${queues.data && queues.data[0].queues} error=${queues.error} />`;
  if (name === 'nodes') return html`<${Nodes} />`;
  return html`<${Overview} queues=${queues.data && queues.data[0].queues} />`;
}

function Shell({ who, onLogout }) {
  const route = useHash();
  // Queues are polled whatever the view, so their history covers the whole visit.
  const queues = usePoll(['/v1/queues'], ([body]) => record(body.queues));
  return html`
    <header class="top">
      <span class="brand">Boreas</span>
      <nav>${VIEWS.map(([key, label]) => html`
        <a href=${`#/${key}`} class=${(route[0] || 'overview') === key ? 'active' : ''} id=${`nav-${key}`}>${label}</a>`)}</nav>
      <span class="who" id="who">${who.name} · ${who.role}</span>
      <button id="logout" onClick=${onLogout}>Log out</button>
    </header>
    <main><${View} route=${route} who=${who} queues=${queues} /></main>`;
}

function App() {
  const [who, setWho] = useState(null);
  const [checking, setChecking] = useState(Boolean(token.get()));
  const [error, setError] = useState(null);
  useEffect(() => {
    if (!token.get()) return;
    call('/v1/whoami')
      .then(setWho)
      .catch((e) => { token.clear(); setError(`The stored token was refused. ${e.message}`); })
      .finally(() => setChecking(false));
  }, []);
  const logout = () => { token.clear(); setWho(null); setError(null); };
  if (checking) return html`<p class="note">Checking the token…</p>`;
  if (!who) return html`<main><${Login} onLogin=${setWho} error=${error} /></main>`;
  return html`<${Shell} who=${who} onLogout=${logout} />`;
}

render(html`<${App} />`, document.body);
