// The login page: the user pastes a bearer token (`boreas token create`); it is checked with
// GET /v1/whoami before it is kept.
import { call, token } from './api.js';
import { html, useState } from './lib.js';

export function Login({ onLogin, error: initialError }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState(initialError);
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    const pasted = value.trim();
    if (!pasted) {
      setError('paste a token first: an admin creates one with `boreas token create --role ROLE --name NAME`');
      return;
    }
    setBusy(true);
    try {
      const who = await call('/v1/whoami', { tokenValue: pasted });
      token.set(pasted);
      onLogin(who);
    } catch (err) {
      setError(`The daemon refused this token. ${err.message}`);
      setBusy(false);
    }
  };
  return html`
    <section class="login card" id="login">
      <h1>Boreas console</h1>
      <p>Paste your API token. It is kept in this tab only (sessionStorage) and sent as
        <code>Authorization: Bearer …</code> with every request.</p>
      <form onSubmit=${submit}>
        <label for="token">Token</label>
        <input id="token" name="token" type="password" autocomplete="off" spellcheck="false"
          value=${value} onInput=${(e) => setValue(e.currentTarget.value)} />
        <button type="submit" disabled=${busy}>Log in</button>
      </form>
      ${error && html`<p class="error" role="alert" id="login-error">${error}</p>`}
    </section>`;
}
