#!/bin/bash
# Renders a PDF to PNG as a Slurm job array, one shard per array task: hostapp reads
# SLURM_ARRAY_TASK_ID (less SLURM_ARRAY_TASK_MIN) through --shard auto/N, N being the array's
# task count. A task that is preempted and requeued (--requeue) writes, with --resume, only the
# pages its manifest does not yet record.
#
#   sbatch --export=ALL,DOC=/shared/refman.pdf,OUT=/shared/refman examples/slurm/render-array.sh
#   sbatch --dependency=afterok:JOBID --wrap "hostapp manifest check /shared/refman"
#
# DOC and OUT must be on a file system every node sees. HOSTAPP names the program if it is not
# on the PATH. Tested locally by Tests/HostAppTests/ShardCommandTests.swift, which runs this
# script once per task id with the variables Slurm sets.
#SBATCH --job-name=hostapp-render
#SBATCH --array=0-3
#SBATCH --cpus-per-task=2
#SBATCH --mem=1G
#SBATCH --requeue
#SBATCH --output=hostapp-render-%A_%a.log
set -euo pipefail

: "${DOC:?set DOC to the PDF to render}"
: "${OUT:?set OUT to the output directory}"
: "${SLURM_ARRAY_TASK_COUNT:?run this script with sbatch, as a job array}"

exec "${HOSTAPP:-hostapp}" --renderer mupdf render "$DOC" --dpi 150 \
    --shard "auto/$SLURM_ARRAY_TASK_COUNT" --resume --jobs "${SLURM_CPUS_PER_TASK:-1}" -o "$OUT"
