// What the token may do to a job: the rule of src/server/api/auth.cpp (authorize), mirrored so the
// console hides what the role may not do. The API still decides every request.
export function memberOf(who, queue) {
  return who.queues.includes('*') || who.queues.includes(queue);
}

export function mayAct(who, job) {
  if (!who) return false;
  if (who.role === 'admin') return true;
  if (who.role === 'viewer' || !memberOf(who, job.request.queue)) return false;
  return who.role === 'queue-admin' || job.owner === who.name;
}

export const mayCancel = (who, job) => mayAct(who, job) && ['pending', 'running', 'preempted'].includes(job.state);
export const mayCheckpoint = (who, job) => mayAct(who, job) && job.state === 'running';
