#!/usr/bin/env bash
# if_up.sh COMMAND...: runs a Slurm test when the fixture cluster is up ($LAB/env, written by
# cluster.sh start), else exits 77 (ctest: skipped) - cluster.sh start said why it did not start.
[ -f "${LAB:?}/env" ] || { echo "if_up.sh: skipped: no cluster in $LAB (see slurm_cluster_start)" >&2; exit 77; }
exec "$@"
