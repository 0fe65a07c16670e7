// Numbers and times as people read them.
export const JOB_STATES = ['pending', 'running', 'preempted', 'completed', 'failed', 'cancelled'];

export function dateOf(us) {
  if (!us) return '–';
  return new Date(us / 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

export function duration(seconds) {
  if (seconds === undefined || seconds === null || Number.isNaN(seconds)) return '–';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
}

export function percent(part, whole) {
  return whole > 0 ? `${Math.round((100 * part) / whole)}%` : '–';
}

export const jobName = (job) => job.request.name || job.request.command.join(' ');
