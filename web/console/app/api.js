// Calls to the daemon's JSON API (docs/api/openapi.yaml) with the bearer token the user pasted.
// The token lives in sessionStorage only: it ends with the tab, and no cookie is ever sent, so a
// page on another site cannot make requests in the user's name (no CSRF).
const KEY = 'boreas.token';

export const token = {
  get: () => sessionStorage.getItem(KEY) || '',
  set: (value) => sessionStorage.setItem(KEY, value),
  clear: () => sessionStorage.removeItem(KEY),
};

// An answer other than 2xx: the HTTP status and the daemon's own message.
export class ApiError extends Error {
  constructor(status, message, path) {
    super(`${path}: HTTP ${status}: ${message}`);
    this.status = status;
  }
}

async function messageOf(res) {
  const text = await res.text();
  try {
    return JSON.parse(text).error || text;
  } catch {
    return text || res.statusText;
  }
}

// GET or POST one path; resolves to the parsed JSON (or text), rejects with an ApiError.
export async function call(path, { method = 'GET', body, tokenValue = token.get() } = {}) {
  const headers = { Authorization: `Bearer ${tokenValue}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store', credentials: 'omit' });
  } catch (e) {
    throw new ApiError(0, `the daemon did not answer (${e.message}); is \`boreas serve\` running?`, path);
  }
  if (!res.ok) throw new ApiError(res.status, await messageOf(res), path);
  const type = res.headers.get('Content-Type') || '';
  return type.includes('json') ? res.json() : res.text();
}
