// Small pieces shared by the views.
import { html } from './lib.js';

export function ErrorBanner({ error }) {
  if (!error) return null;
  const hint = error.status === 401 ? ' The token is no longer valid: log out and paste a new one.' : '';
  return html`<p class="error" role="alert">${error.message}${hint}</p>`;
}

export function StateBadge({ state }) {
  return html`<span class=${`badge state-${state}`}>${state}</span>`;
}

// A horizontal bar: `value` of `max`, with an optional marker (a queue's guarantee).
export function Bar({ value, max, marker, label }) {
  const width = 200;
  const scale = (v) => (max > 0 ? Math.min(width, (width * v) / max) : 0);
  return html`
    <svg class="bar" width=${width} height="14" role="img" aria-label=${label}>
      <rect class="bar-bg" x="0" y="0" width=${width} height="14" />
      <rect class="bar-fill" x="0" y="0" width=${scale(value)} height="14" />
      ${marker !== undefined && html`<line class="bar-marker" x1=${scale(marker)} x2=${scale(marker)} y1="0" y2="14" />`}
    </svg>`;
}

export function Loading({ what }) {
  return html`<p class="note">Loading ${what}…</p>`;
}
