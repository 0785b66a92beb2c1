"""Writes length_grouped.json: transformers' get_length_grouped_indices (the order of its
LengthGroupedSampler) with the torch.randperm it starts from.

Run from the repository root with the Hugging Face reference environment (scripts/deps.sh test
installs it in .venv/hf):

    .venv/hf/bin/python data/testdata/make_length_grouped.py

goaccel draws its permutation from its own generator, so the test feeds transformers' permutation
to goaccel's grouping and compares the orders.
"""
import json
import os
import random

import torch
import transformers
from transformers.trainer_pt_utils import get_length_grouped_indices

cases = []
for n, batch, mult, seed in [(7, 4, None, 1), (50, 4, None, 2), (203, 8, None, 3), (120, 5, 3, 4), (64, 2, None, 5)]:
    rnd = random.Random(seed)
    lengths = [rnd.randint(3, 40) for _ in range(n)]  # with ties
    perm = torch.randperm(n, generator=torch.Generator().manual_seed(seed)).tolist()
    order = get_length_grouped_indices(lengths, batch, mega_batch_mult=mult,
                                       generator=torch.Generator().manual_seed(seed))
    cases.append({"lengths": lengths, "batch_size": batch, "mega_batch_mult": mult or 0,
                  "perm": perm, "order": order})
with open(os.path.join(os.path.dirname(__file__), "length_grouped.json"), "w") as f:
    json.dump({"transformers": transformers.__version__, "cases": cases}, f)
    f.write("\n")
