// Package tokenizers loads Hugging Face tokenizers from tokenizer.json and
// encodes text id for id as the Python tokenizers library (Rust) does, with
// transformers' batch padding and truncation on top:
//
//	tok, err := tokenizers.FromPretrained("all-MiniLM-L6-v2") // tokenizer.json + tokenizer_config.json
//	enc, err := tok.Encode("Hello, world!")                    // enc.IDs, enc.Tokens, enc.Offsets…
//	batch, err := tok.Batch(texts, tokenizers.Options{Padding: tokenizers.PadLongest, Truncation: tokenizers.LongestFirst})
//	ids, err := batch.InputIDsTensor()                         // int64 [batch, length] for a model
//
// Supported, as tokenizers 0.23 runs them: the models BPE (byte-level
// GPT-2, RoBERTa, Llama 3; SentencePiece-style with byte fallback, Llama 2,
// Mistral; merges by rank, ignore_merges, continuing-subword prefix and
// end-of-word suffix), WordPiece, Unigram (Viterbi, fused unknowns, byte
// fallback) and WordLevel; the normalisers BertNormalizer, NFC, NFD, NFKC,
// NFKD, Lowercase, StripAccents, Strip, Replace, Prepend, Nmt, ByteLevel,
// Precompiled (SentencePiece's charsmap, T5) and Sequence; the
// pre-tokenisers BertPreTokenizer, Whitespace, WhitespaceSplit,
// Punctuation, Digits, Split (Oniguruma regular expressions), ByteLevel,
// Metaspace, CharDelimiterSplit and Sequence; added tokens with their
// single_word, lstrip, rstrip and normalized flags; the post-processors
// TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel and
// Sequence; the decoders ByteLevel, WordPiece, Metaspace, ByteFallback,
// Fuse, Strip, Replace, BPEDecoder, CTC and Sequence. Anything else in a
// tokenizer.json (UnicodeScripts, FixedLength, BPE dropout…) is an error
// naming it: goaccel never encodes differently.
//
// Offsets are in characters of the input, as Python's Encoding.offsets
// (tokenizers reports bytes in Rust; its Python binding converts).
//
// Why not a library: github.com/gomlx/go-huggingface's tokenizer falls back
// to whitespace splitting for a pre-tokeniser it does not know, has no
// Precompiled normaliser and approximates offsets after Unicode
// normalisation, and pulls in gomlx; github.com/sugarme/tokenizer (v0.3.0)
// is little maintained. Matching tokenizers id for id needs its exact
// quirks (alignment bookkeeping through normalisers, serde_json's float
// parsing of Unigram scores, Unicode 9 normalisation tables, the onig
// crate's empty-match rule), so this package ports them and tests them on
// 2,485 sentences per tokenizer against the Python library's output.
//
// Files:
//   - tokenizer.go: Tokenizer, FromFile, FromJSON, Encode, EncodePair,
//     EncodeBatch (parallel), Decode, TokenToID, IDToToken, VocabSize.
//   - encoding.go: Encoding and Offset, Python's Encoding.
//   - batch.go: Batch and BatchPairs with Options (transformers' padding,
//     truncation and their defaults), BatchEncoding and its int64 tensors.
//   - pretrained.go: FromPretrained (tokenizer_config.json,
//     special_tokens_map.json).
//   - save.go: SavePretrained, the folder FromPretrained and transformers'
//     AutoTokenizer read.
//   - internal/normstr: the normalised string with its alignments to the
//     original, splitting, patterns (tokenizers' NormalizedString).
//   - internal/uprops: character properties and Unicode normalisation as
//     tokenizers' Rust crates define them.
//   - internal/regex: Oniguruma patterns (regexp2) and hand-written
//     scanners for the GPT-2 and Llama 3 patterns.
//   - internal/spec: reading tokenizer.json components; serde_json's float
//     parsing.
//   - internal/normalizers, internal/pretokenizers, internal/models,
//     internal/processors, internal/decoders: the components.
//   - internal/encoding: tokenizers' Encoding (merge, truncate, pad).
//   - internal/pipeline: a loaded tokenizer.json, added tokens, encode and
//     decode in tokenizers' order.
//   - testdata/make_fixtures.py, testdata/sentences.py: the fixtures and the
//     reference outputs, made with the Python libraries (see testdata/README.md).
package tokenizers
