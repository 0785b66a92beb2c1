"""transformers baseline of transformers/llama's benchmarks (run by bench/llama.sh): the same small
random Llama (19.4 M parameters: 4 layers of 512 features, 8 query heads over 2 key/value heads,
SwiGLU 1376, vocabulary 8192) on the CPU, under torch.inference_mode:

  TorchLlamaDecodeStep/batch=N   one decoding step over a DynamicCache holding 128 tokens (one new
                                 token per row, logits_to_keep=1; the cache cropped back after it)
  TorchLlamaGenerate/cache=C     generate(do_sample=False) of 64 tokens after a 32-token prompt,
                                 batch 1, use_cache=C

Usage: llama_torch.py [seconds] [threads...]. Prints Go-benchmark-style lines:
"TorchLlamaDecodeStep/batch=1-threads1  17.2 ms/op  8.0 cpu-ms/op".
"""
import resource
import sys
import time

import torch
from transformers import LlamaConfig, LlamaForCausalLM


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def timed(name, fn, seconds):
    fn()
    n, t0, c0 = 0, time.perf_counter(), cpu()
    while n < 3 or time.perf_counter() - t0 < seconds:
        fn()
        n += 1
    wall, used = (time.perf_counter() - t0) / n, (cpu() - c0) / n
    print(f"{name}  {wall * 1e3:.2f} ms/op  {used * 1e3:.2f} cpu-ms/op", flush=True)


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5
    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=8192, hidden_size=512, intermediate_size=1376, num_hidden_layers=4,
                      num_attention_heads=8, num_key_value_heads=2)
    model = LlamaForCausalLM(cfg).eval()
    for threads in [int(t) for t in sys.argv[2:]] or [1]:
        torch.set_num_threads(threads)
        with torch.inference_mode():
            for batch in (1, 8):
                cache = model(input_ids=torch.randint(3, 8000, (batch, 128)), use_cache=True).past_key_values
                nxt = torch.randint(3, 8000, (batch, 1))

                def step():
                    model(input_ids=nxt, past_key_values=cache, use_cache=True, logits_to_keep=1)
                    cache.crop(-1)

                timed(f"TorchLlamaDecodeStep/batch={batch}-threads{threads}", step, seconds)
            prompt = torch.randint(3, 8000, (1, 32))
            for use_cache in (True, False):
                timed(f"TorchLlamaGenerate/cache={str(use_cache).lower()}-threads{threads}",
                      lambda: model.generate(prompt, attention_mask=torch.ones_like(prompt), max_new_tokens=64,
                                             min_new_tokens=64, do_sample=False, use_cache=use_cache), seconds)


if __name__ == "__main__":
    main()
