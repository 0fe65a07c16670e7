#!/usr/bin/env bash
# The CLI's Slurm habits end to end against a real daemon: sbatch's flags and time formats, a
# batch script's #SBATCH/#BOREAS lines (the command line wins), jobs/cancel/why/logs as squeue,
# scancel and the output files answer, dependencies, loud errors (exit 1 with a message),
# terminal-safe names, --version and the generated bash completion.
source "$(dirname "$0")/lib.sh"
start_daemon
export BOREAS_SERVER=$URL BOREAS_TOKEN
BOREAS_TOKEN=$(token admin '*' root)
b() { "$BOREAS" "$@"; }
field() { b job "$1" --json | sed -n "s/.*\"$2\": \\{0,1\\}\"\\{0,1\\}\\([^,\"}]*\\).*/\\1/p" | head -1; }
wait_cli() {  # wait_cli ID STATE
  for _ in $(seq 200); do [ "$(field "$1" state)" = "$2" ] && return 0; sleep 0.05; done
  fail "job $1 never became $2: $(b job "$1" --json)"
}
loud() {  # loud "EXPECTED TEXT" CMD...: exits 1 and says EXPECTED TEXT on stderr
  local want=$1 rc=0
  shift
  "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
  [ "$rc" = 1 ] || fail "$* exited $rc, not 1: $(cat "$WORK/out" "$WORK/err")"
  grep -qF -- "$want" "$WORK/err" || fail "$* did not say '$want': $(cat "$WORK/err")"
}

[[ "$(b --version)" == "boreas "* ]] || fail "--version printed '$(b --version)'"

# Time limits as sbatch reads them: a bare number is minutes, D-HH:MM:SS is days.
day=$(b submit --parsable -t 1-00:00:00 -J day -- true)
[ "$(field "$day" time_limit_s)" = 86400 ] || fail "-t 1-00:00:00 stored $(field "$day" time_limit_s) s"
thirty=$(b submit --parsable --time-limit 30 -- true)
[ "$(field "$thirty" time_limit_s)" = 1800 ] || fail "--time-limit 30 stored $(field "$thirty" time_limit_s) s, not 30 min"
loud "--time: \`1:2:3:4\`" b submit -t 1:2:3:4 -- true

# A batch script: its directives set options, the command line overrides them, and a directive
# after the first command is not one (as in sbatch).
cat >"$WORK/job.sh" <<'SH'
#!/bin/sh
#SBATCH -J scripted
#SBATCH --time=5
#BOREAS -G 1
echo "hello from $CUDA_VISIBLE_DEVICES"
#SBATCH -J too-late
SH
script=$(b submit --parsable -t 10 "$WORK/job.sh")
[ "$(field "$script" name)" = scripted ] || fail "the script's -J gave name '$(field "$script" name)'"
[ "$(field "$script" time_limit_s)" = 600 ] || fail "-t 10 on the command line did not override --time=5"
[ "$(field "$script" gpus)" = 1 ] || fail "#BOREAS -G 1 gave $(field "$script" gpus) GPUs"
wait_cli "$script" completed
[[ "$(b logs "$script")" =~ ^"hello from "[0-7]$ ]] || fail "logs printed '$(b logs "$script")', not one GPU's index"
printf '#!/bin/sh\n#SBATCH --exclusive\ntrue\n' >"$WORK/bad.sh"
loud "bad.sh:2: \`#SBATCH --exclusive\`" b submit "$WORK/bad.sh"

# jobs: active ones by default with squeue's columns, history with --all.
sleeper=$(b submit --parsable -J nap -G 1 -- sleep 30)
wait_cli "$sleeper" running
header=$(b jobs | head -1)
[ "$(echo $header)" = "JOBID NAME USER QUEUE STATE TIME GPUS NODELIST(REASON)" ] || fail "jobs header: $header"
[ "$(b jobs --noheader -o id)" = "$sleeper" ] || fail "active jobs: '$(b jobs --noheader -o id)', not $sleeper alone"
b jobs --all --noheader -o id,state | grep -qx "$script *completed" || fail "--all does not list $script as completed"
# The daemon pages GET /v1/jobs by id: the CLI follows every page, and asks for active jobs by
# state, so the running job (newest id) shows whatever the history before it.
[ "$(b jobs --all --noheader -o id --page-size 2 | wc -l)" = "$sleeper" ] || fail "--all over pages of 2 lost jobs"
[ "$(b jobs --noheader -o id --page-size 2)" = "$sleeper" ] || fail "active jobs over pages of 2: not $sleeper alone"
loud "valid states: pending, running" b jobs --state bogus
loud "unknown column \`bogus\`" b jobs -o id,bogus
b why "$sleeper" | grep -q "^running on node-[a-z0-9-]* (GPUs [0-7]) since 20[0-9-]*T[0-9:]*Z (for [0-9]:[0-9][0-9])$" || fail "why: $(b why "$sleeper")"

# Dependencies: afterany waits while the job runs and starts when it ends; afterok on a failed
# job is never satisfied.
after=$(b submit --parsable -d "afterany:$sleeper" -- true)
sleep 0.3
[ "$(field "$after" state)" = pending ] || fail "afterany:$sleeper did not wait: $(field "$after" state)"
b why "$after" | grep -q "^pending: Dependency" || fail "why of a waiting dependent: $(b why "$after")"
broken=$(b submit --parsable -- false)
wait_cli "$broken" failed
never=$(b submit --parsable -d "afterok:$broken" -- true)
wait_cli "$never" cancelled
b why "$never" | grep -q "DependencyNeverSatisfied" || fail "why of a never-satisfied job: $(b why "$never")"
loud "no job 9999" b submit -d afterok:9999 -- true

# An array: one job per index, named NAME_i, the index in the environment; %1 chains them.
mapfile -t tasks < <(b submit --parsable -a 0-2%1 -J arr -- sh -c 'echo $SLURM_ARRAY_TASK_ID $BOREAS_ARRAY_TASK_ID')
[ "${#tasks[@]}" = 3 ] || fail "--array 0-2 made ${#tasks[@]} jobs: ${tasks[*]}"
wait_cli "${tasks[2]}" completed
[ "$(b logs "${tasks[1]}")" = "1 1" ] || fail "task 1 printed '$(b logs "${tasks[1]}")'"
[ "$(field "${tasks[2]}" name)" = arr_2 ] || fail "task 2 is named $(field "${tasks[2]}" name)"
[ "$(field "${tasks[2]}" dependency)" = "afterany:${tasks[1]}" ] || fail "%1 did not chain task 2 after task 1"

# -o/-e as sbatch: files the job writes itself (%j, %x; relative to the working directory);
# `logs` points there; a file the job cannot open fails it, saying which.
oe=$(b submit --parsable -J oe -o "$WORK/out-%j.log" -e "$WORK/err-%x.log" -- sh -c 'echo to-out; echo to-err >&2')
wait_cli "$oe" completed
[ "$(cat "$WORK/out-$oe.log")" = to-out ] || fail "-o out-%j.log: $(ls "$WORK")"
[ "$(cat "$WORK/err-oe.log")" = to-err ] || fail "-e err-%x.log: $(ls "$WORK")"
loud "writes its stdout to $WORK/out-$oe.log" b logs "$oe"
rel=$(cd "$WORK" && b submit --parsable -o "rel-%j.log" -- echo relative)
wait_cli "$rel" completed
[ "$(cat "$WORK/rel-$rel.log")" = relative ] || fail "-o rel-%j.log was not written in the submit directory"
nowhere=$(b submit --parsable -o /proc/no-such-dir/out.log -- echo lost)
wait_cli "$nowhere" failed
b logs --stderr "$nowhere" | grep -qF "cannot open the job's output file (sbatch -o/-e) as its account: /proc/no-such-dir/out.log" ||
  fail "an unopenable -o said: $(b logs --stderr "$nowhere")"
loud "unsupported escape \`%A\`" b submit -o "out-%A.log" -- true

# cancel: several ids, by name, unknown ids.
[ "$(b cancel "$sleeper")" = "Cancelled job $sleeper" ] || fail "cancel $sleeper"
wait_cli "$after" completed
one=$(b submit --parsable -J sweep -- sleep 30)
two=$(b submit --parsable -J sweep -- sleep 30)
[ "$(b cancel -n sweep | sort)" = "$(printf 'Cancelled job %s\n' "$one" "$two" | sort)" ] || fail "cancel -n sweep"
loud "no job 9999" b cancel 9999
loud "job id \`abc\`: expected a number" b cancel abc

# Without --queues the only queue is `default`: a typo is refused, not made a queue.
loud "only queue is \`default\`" b submit -A defualt -- true

# Names reach the terminal with their control characters escaped.
red=$(b submit --parsable -J $'\e[31mred' -- sleep 30)
b jobs --noheader -o id,name | grep -qF "$red  \\x1b[31mred" || fail "name not escaped: $(b jobs --noheader -o id,name | od -c | head)"
! b jobs | grep -q $'\e' || fail "an escape byte reached the terminal"
b cancel "$red" >/dev/null

# logs -f follows a job to its end.
chatty=$(b submit --parsable -- sh -c 'echo one; sleep 0.5; echo two >&2; echo three')
[ "$(timeout 20 "$BOREAS" logs -f "$chatty")" = "$(printf 'one\nthree')" ] || fail "logs -f: $(b logs "$chatty")"
[ "$(b logs --stderr "$chatty")" = two ] || fail "logs --stderr: $(b logs --stderr "$chatty")"

# Completion generated from the CLI definition: valid bash that completes `boreas sub<TAB>`.
b completion bash >"$WORK/completion.bash"
bash -n "$WORK/completion.bash" || fail "the bash completion does not parse"
got=$(bash -c 'source "$1"; COMP_WORDS=(boreas sub); COMP_CWORD=1; _boreas_complete; echo "${COMPREPLY[*]}"' _ "$WORK/completion.bash")
[ "$got" = submit ] || fail "boreas sub<TAB> completed to '$got'"
got=$(bash -c 'source "$1"; COMP_WORDS=(boreas jobs --no); COMP_CWORD=2; _boreas_complete; echo "${COMPREPLY[*]}"' _ "$WORK/completion.bash")
[ "$got" = --noheader ] || fail "boreas jobs --no<TAB> completed to '$got'"
echo "live_cli: ok"
