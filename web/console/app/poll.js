// Live data: every view polls the JSON API every 2 s while it is shown.
import { call } from './api.js';
import { useEffect, useState } from './lib.js';

export const POLL_MS = 2000;

// Fetches `paths` now and every POLL_MS; returns { data: [answers] | null, error }. `onAnswer`
// sees each complete set of answers (the queue history is kept that way).
export function usePoll(paths, onAnswer) {
  const [state, setState] = useState({ data: null, error: null });
  const key = paths.join(' ');
  useEffect(() => {
    let live = true;
    const tick = async () => {
      try {
        const data = await Promise.all(paths.map((p) => call(p)));
        if (onAnswer) onAnswer(data);
        if (live) setState({ data, error: null });
      } catch (error) {
        if (live) setState((s) => ({ data: s.data, error }));
      }
    };
    tick();
    const timer = setInterval(tick, POLL_MS);
    return () => { live = false; clearInterval(timer); };
  }, [key]);
  return state;
}
