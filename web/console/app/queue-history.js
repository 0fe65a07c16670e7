// GPUs in use per queue over time, from the polls of GET /v1/queues, kept in the page (the
// daemon keeps no history). The last HISTORY samples: 10 minutes at one poll every 2 s.
export const HISTORY = 300;
const samples = [];

export function record(queues) {
  samples.push({ t: Date.now(), used: Object.fromEntries(queues.map((q) => [q.name, q.gpus_in_use])) });
  if (samples.length > HISTORY) samples.shift();
}

export const series = (name) => samples.map((s) => ({ t: s.t, v: s.used[name] ?? 0 }));
