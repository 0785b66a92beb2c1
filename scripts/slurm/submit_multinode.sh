#!/bin/bash
# Data-parallel training on every node of a Slurm allocation, as Accelerate's
# examples/slurm/submit_multinode.sh does with accelerate launch: srun starts
# one goaccel launch per node, and each starts its node's workers.
#
#   sbatch submit_multinode.sh ./train [program arguments]
#
# ./train is a goaccel program (an `%accelerate export` folder built with
# `go build -o train .`, or any Go program using accelerate) on a file
# system every node sees.
#SBATCH --job-name=goaccel-multinode
#SBATCH --nodes=2                # number of nodes
#SBATCH --ntasks-per-node=1      # one goaccel launch per node
#SBATCH --cpus-per-task=2        # the cores its workers share
#SBATCH --output=%x.%j.out

PROCS_PER_NODE=${PROCS_PER_NODE:-2}   # workers per node: one per GPU, or CPU processes
head_node=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
# The rendezvous secret, the same on every node (srun passes the environment on).
export GOACCEL_STORE_TOKEN=${GOACCEL_STORE_TOKEN:-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')}

# Each node's rank comes from SLURM_NODEID.
srun goaccel launch \
    --num_processes $((SLURM_NNODES * PROCS_PER_NODE)) \
    --num_machines "$SLURM_NNODES" \
    --main_process_ip "$head_node" \
    --main_process_port 29500 \
    "$@"
