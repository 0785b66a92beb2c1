"""Writes the reference values the GPT-2, Llama and Mistral tests compare with.

Run from this folder with a Python that has torch 2.x and transformers 5, from a checkout that
has tokenizers/testdata (the Llama 2 tokenizer of the tokenizer integration test):

    HF_HUB_OFFLINE=1 python make_decoder_fixtures.py

It writes small random models (initializer_range 0.1, so that greedy decoding varies its tokens) saved by save_pretrained (config.json + model.safetensors):
  tiny-gpt2/          GPT2LMHeadModel: 2 layers, 32 features, 4 heads, 64 positions, vocab 256
                      (lm_head tied to wte, as GPT-2 always is)
  tiny-llama/         LlamaForCausalLM: 2 layers, 32 features, 4 heads over 2 key/value heads,
                      SwiGLU 64, vocab 256, rope_theta 10000, untied lm_head
  tiny-llama-scaled/  LlamaForCausalLM with rope_type "llama3" scaling, tie_word_embeddings,
                      head_dim 16 given apart from hidden_size 32 / 4 heads, 1 key/value head,
                      attention and MLP biases, vocab 1200 (the Llama 2 tokenizer fixture's)
  tiny-mistral/       MistralForCausalLM with sliding_window 6 (the padded batch has 8 tokens)
and decoders.safetensors with, per model, the padded batches (right and left padding), the
logits, the causal LM loss and every gradient, a sequence classifier's logits and loss (its
score weight stored here), greedy generation on a left-padded batch with and without the KV
cache (the processed scores of each step too), and bf16 autocast logits; the activations of
every activation_function goaccel accepts; the Llama 2 tokenizer fixture's ids for a few prompts and
the text transformers generates from them. Everything else runs in float32, in evaluation mode,
on the CPU.
"""

import os

import torch
from safetensors.torch import save_file
from transformers import (
    GPT2Config,
    GPT2ForSequenceClassification,
    GPT2LMHeadModel,
    LlamaConfig,
    LlamaForCausalLM,
    LlamaForSequenceClassification,
    MistralConfig,
    MistralForCausalLM,
    PreTrainedTokenizerFast,
)
from transformers.activations import ACT2FN

torch.set_num_threads(1)
HERE = os.path.dirname(os.path.abspath(__file__))
TOKENIZERS = os.environ.get("TOKENIZERS_TESTDATA", os.path.join(HERE, "..", "..", "tokenizers", "testdata"))

PAD = 0
# A padded batch: row 0 full, row 1 right-padded, row 2 left-padded (pad id 0).
IDS = torch.tensor([
    [5, 17, 88, 9, 31, 44, 23, 7],
    [5, 60, 12, 3, 0, 0, 0, 0],
    [0, 0, 0, 5, 71, 14, 99, 6],
])
# Prompts for generation, left-padded as generation wants them.
PROMPTS = torch.tensor([
    [0, 0, 5, 17, 88, 9],
    [5, 60, 12, 3, 44, 9],
    [0, 0, 0, 0, 7, 31],
])
NEW_TOKENS = 12
CLS_LABELS = torch.tensor([2, 0, 1])
ACTIVATIONS = ["gelu", "gelu_new", "gelu_pytorch_tanh", "gelu_python", "gelu_python_tanh", "gelu_fast",
               "gelu_accurate", "gelu_10", "quick_gelu", "relu", "relu2", "relu6", "leaky_relu", "silu",
               "swish", "sigmoid", "tanh", "linear", "hardswish", "mish"]


def f32(t):
    return t.detach().to(torch.float32).clone().contiguous()


def lm_checks(out, name, model):
    """Logits, the causal LM loss and every gradient on the padded batch, and bf16 autocast logits."""
    mask = (IDS != PAD).long()
    labels = IDS.masked_fill(mask == 0, -100)
    o = model(input_ids=IDS, attention_mask=mask, labels=labels)
    o.loss.backward()
    out[name + ".logits"], out[name + ".loss"] = f32(o.logits), f32(o.loss)
    for n, p in model.named_parameters():
        out[name + ".grad." + n] = f32(p.grad)
    model.zero_grad()
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
        out[name + ".bf16.logits"] = f32(model(input_ids=IDS, attention_mask=mask).logits)


def generation(out, name, model, prompts, new_tokens, eos=None):
    """Greedy generation with and without the cache; they must agree."""
    mask = (prompts != PAD).long()
    res = {}
    for cache in (True, False):
        g = model.generate(input_ids=prompts, attention_mask=mask, do_sample=False, max_new_tokens=new_tokens,
                           use_cache=cache, eos_token_id=eos, pad_token_id=PAD, output_scores=True,
                           return_dict_in_generate=True)
        res[cache] = g
    assert torch.equal(res[True].sequences, res[False].sequences), name + ": cached and uncached generation differ"
    out[name + ".gen.sequences"] = res[True].sequences.clone()
    out[name + ".gen.scores"] = torch.stack([f32(s) for s in res[True].scores])
    out[name + ".gen.eos"] = torch.tensor([-1 if eos is None else eos])


def pick_eos(model, prompts):
    """An end-of-sequence id that stops one row a few tokens in while another row runs on longer."""
    mask = (prompts != PAD).long()
    g = model.generate(input_ids=prompts, attention_mask=mask, do_sample=False, max_new_tokens=NEW_TOKENS,
                       eos_token_id=None, pad_token_id=PAD)
    new = g[:, prompts.shape[1]:].tolist()
    for row in range(len(new)):
        for step in range(2, NEW_TOKENS - 3):
            tok = new[row][step]
            later = [r for r in range(len(new)) if r != row and tok not in new[r][: step + 2]]
            if tok != PAD and tok not in new[row][:step] and later:
                return tok
    raise RuntimeError("no token suits as an end-of-sequence id")


def classifier(out, name, cls):
    mask = (IDS != PAD).long()
    cls.eval()
    out[name + ".cls.score"] = f32(cls.score.weight)
    o = cls(input_ids=IDS, attention_mask=mask, labels=CLS_LABELS)
    out[name + ".cls.logits"], out[name + ".cls.loss"] = f32(o.logits), f32(o.loss)


def gpt2(out):
    torch.manual_seed(0)
    cfg = GPT2Config(vocab_size=256, n_embd=32, n_layer=2, n_head=4, n_positions=64, initializer_range=0.1, bos_token_id=1,
                     eos_token_id=2, pad_token_id=PAD)
    model = GPT2LMHeadModel(cfg).eval()
    d = os.path.join(HERE, "tiny-gpt2")
    model.save_pretrained(d)
    lm_checks(out, "gpt2", model)
    eos = pick_eos(model, PROMPTS)
    generation(out, "gpt2", model, PROMPTS, NEW_TOKENS, eos)
    torch.manual_seed(10)
    classifier(out, "gpt2", GPT2ForSequenceClassification.from_pretrained(d, num_labels=3))


def llama(out):
    torch.manual_seed(1)
    cfg = LlamaConfig(vocab_size=256, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128,
                      rms_norm_eps=1e-5, initializer_range=0.1, bos_token_id=1, eos_token_id=2, pad_token_id=PAD)
    model = LlamaForCausalLM(cfg).eval()
    d = os.path.join(HERE, "tiny-llama")
    model.save_pretrained(d)
    lm_checks(out, "llama", model)
    eos = pick_eos(model, PROMPTS)
    generation(out, "llama", model, PROMPTS, NEW_TOKENS, eos)
    torch.manual_seed(11)
    classifier(out, "llama", LlamaForSequenceClassification.from_pretrained(d, num_labels=3))


PROMPT_TEXTS = ["The cat sat on the", "Hello, world! This is a", "Go"]


def llama_scaled(out):
    tok = PreTrainedTokenizerFast(tokenizer_file=os.path.join(TOKENIZERS, "llama2", "tokenizer.json"),
                                  bos_token="<s>", eos_token="</s>", unk_token="<unk>",
                                  pad_token="<unk>", padding_side="left")
    torch.manual_seed(2)
    cfg = LlamaConfig(vocab_size=len(tok), hidden_size=32,
                      intermediate_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=1,
                      head_dim=16, max_position_embeddings=64, rms_norm_eps=1e-6, attention_bias=True, mlp_bias=True,
                      tie_word_embeddings=True, initializer_range=0.1, bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id,
                      pad_token_id=tok.pad_token_id,
                      rope_parameters={"rope_type": "llama3", "rope_theta": 10000.0, "factor": 8.0,
                                       "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                       "original_max_position_embeddings": 16})
    model = LlamaForCausalLM(cfg)
    # Biases start at zero: make them matter.
    with torch.no_grad():
        for n, p in model.named_parameters():
            if n.endswith(".bias"):
                p.normal_(0, 0.02)
    model.eval()
    model.save_pretrained(os.path.join(HERE, "tiny-llama-scaled"))
    lm_checks(out, "llama_scaled", model)

    enc = tok(PROMPT_TEXTS, padding=True, return_tensors="pt")
    out["llama_scaled.text.ids"], out["llama_scaled.text.mask"] = enc["input_ids"], enc["attention_mask"]
    g = model.generate(**enc, do_sample=False, max_new_tokens=16)
    g2 = model.generate(**enc, do_sample=False, max_new_tokens=16, use_cache=False)
    assert torch.equal(g, g2)
    out["llama_scaled.text.sequences"] = g
    texts = tok.batch_decode(g[:, enc["input_ids"].shape[1]:], skip_special_tokens=True)
    return {"llama_scaled.prompts": "\n".join(PROMPT_TEXTS), "llama_scaled.texts": "\n".join(texts)}


def mistral(out):
    torch.manual_seed(3)
    cfg = MistralConfig(vocab_size=256, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                        num_attention_heads=4, num_key_value_heads=2, head_dim=8, max_position_embeddings=128,
                        sliding_window=6, initializer_range=0.1, bos_token_id=1, eos_token_id=2, pad_token_id=PAD)
    model = MistralForCausalLM(cfg).eval()
    model.save_pretrained(os.path.join(HERE, "tiny-mistral"))
    # The batch is longer than the window: the window masks the oldest keys of the later tokens.
    lm_checks(out, "mistral", model)
    # Generation past the window, with and without the cache.
    generation(out, "mistral", model, PROMPTS, NEW_TOKENS)


def activations(out):
    x = torch.linspace(-12, 12, 241)
    out["act.x"] = x
    for name in ACTIVATIONS:
        out["act." + name] = f32(ACT2FN[name](x))


def main():
    out = {"ids": IDS, "prompts": PROMPTS, "cls.labels": CLS_LABELS}
    gpt2(out)
    llama(out)
    meta = llama_scaled(out)
    mistral(out)
    activations(out)
    meta["format"] = "pt"
    meta["activations"] = "\n".join(ACTIVATIONS)
    save_file(out, os.path.join(HERE, "decoders.safetensors"), metadata=meta)


if __name__ == "__main__":
    main()
