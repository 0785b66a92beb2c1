#!/bin/bash
# The same job with srun starting every worker itself, one Slurm task per
# worker: the program reads its rank from Slurm (SLURM_PROCID, SLURM_NTASKS,
# SLURM_LOCALID) and meets the others at MASTER_ADDR:MASTER_PORT.
#
#   sbatch submit_multinode_tasks.sh ./train [program arguments]
#SBATCH --job-name=goaccel-multinode-tasks
#SBATCH --nodes=2                # number of nodes
#SBATCH --ntasks-per-node=2      # workers per node: one per GPU, or CPU processes
#SBATCH --cpus-per-task=1
#SBATCH --output=%x.%j.out

export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export MASTER_PORT=29500
export GOACCEL_STORE_TOKEN=${GOACCEL_STORE_TOKEN:-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')}

srun "$@"
