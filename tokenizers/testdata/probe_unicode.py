"""Records, for every Unicode code point, what tokenizers' components do with it.

    python tokenizers/testdata/probe_unicode.py

writes unicode_probes.json.gz beside this file: for each probe, the code
points where the component does something (a class: ranges; a mapping: the
output). tokenizers classifies and normalises characters with Rust crates of
various Unicode versions (Unicode 9.0 normalisation tables, Oniguruma's and
Rust's own tables); Go's are Unicode 15.0. The Go test TestUnicodeProbes
compares every code point.
"""

import gzip
import json
import os

from tokenizers import Regex, normalizers, pre_tokenizers

HERE = os.path.dirname(os.path.abspath(__file__))
CODEPOINTS = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]


def ranges(members):
    out = []
    for c in members:
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


def klass(test):
    return ranges([c for c in CODEPOINTS if test(chr(c))])


def mapping(f):
    """The code points f removes (as ranges) and those it changes (with the result)."""
    removed, changed = [], {}
    for c in CODEPOINTS:
        s = chr(c)
        r = f(s)
        if r == "":
            removed.append(c)
        elif r != s:
            changed[c] = r
    return {"removed": ranges(removed), "changed": changed}


def removed_by(pattern):
    split = pre_tokenizers.Split(Regex(pattern), behavior="removed")
    return lambda s: split.pre_tokenize_str(s) == []


def main():
    ws_split = pre_tokenizers.WhitespaceSplit()
    whitespace = pre_tokenizers.Whitespace()
    punct = pre_tokenizers.Punctuation(behavior="removed")
    digits = pre_tokenizers.Digits(individual_digits=True)
    bert_clean = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=False, strip_accents=False, lowercase=False)
    bert_strip = normalizers.BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=True, lowercase=False)
    probes = {
        "onig_L": klass(removed_by(r"\p{L}")),
        "onig_N": klass(removed_by(r"\p{N}")),
        "onig_s": klass(removed_by(r"\s")),
        "onig_P": klass(removed_by(r"\p{P}")),
        "onig_S": klass(removed_by(r"\p{S}")),
        "onig_w": klass(removed_by(r"\w")),
        "rust_whitespace": klass(lambda s: ws_split.pre_tokenize_str(s) == []),
        "rust_regex_word": klass(lambda s: len(whitespace.pre_tokenize_str("a" + s + "a")) == 1 and
                                 whitespace.pre_tokenize_str("a" + s + "a")[0][0] == "a" + s + "a"),
        "punctuation": klass(lambda s: punct.pre_tokenize_str(s) == []),
        "numeric": klass(lambda s: len(digits.pre_tokenize_str("a" + s)) == 2),
        "bert_clean": mapping(bert_clean.normalize_str),
        "bert_strip_accents": mapping(bert_strip.normalize_str),
        "strip_accents": mapping(normalizers.StripAccents().normalize_str),
        "lowercase": mapping(normalizers.Lowercase().normalize_str),
        "nfd": mapping(normalizers.NFD().normalize_str),
        "nfkd": mapping(normalizers.NFKD().normalize_str),
        "nfc": mapping(normalizers.NFC().normalize_str),
        "nfkc": mapping(normalizers.NFKC().normalize_str),
        # characters whose decomposition starts with a combining class below U+0345's (240): reordered before it
        "ccc_below_240": klass(lambda s: not normalizers.NFD().normalize_str("\u0345" + s).startswith("\u0345")),
    }
    with gzip.open(os.path.join(HERE, "unicode_probes.json.gz"), "wt", encoding="utf-8", compresslevel=9) as f:
        json.dump(probes, f, ensure_ascii=False, separators=(",", ":"))
    for k, v in probes.items():
        print(k, len(v) if isinstance(v, list) else (len(v["removed"]), len(v["changed"])))


if __name__ == "__main__":
    main()
