package decoders

import "testing"

// TestLossyReplacesMaximalSubparts pins Rust's String::from_utf8_lossy: one
// U+FFFD per maximal invalid subsequence (Go's strings.ToValidUTF8 would
// give one per run).
func TestLossyReplacesMaximalSubparts(t *testing.T) {
	cases := []struct {
		in   string
		want string
	}{
		{"a\xe2\x82b", "a\ufffdb"},             // a truncated 3-byte sequence: one replacement
		{"\xff\xfe", "\ufffd\ufffd"},           // two invalid bytes: two
		{"\xf0\x9f\x98", "\ufffd"},             // truncated emoji at the end
		{"\xed\xa0\x80", "\ufffd\ufffd\ufffd"}, // a surrogate: each byte
		{"\xe0\x80\x80", "\ufffd\ufffd\ufffd"}, // overlong
		{"ok\xc3\xa9", "oké"},
	}
	for _, c := range cases {
		if got := Lossy([]byte(c.in)); got != c.want {
			t.Errorf("Lossy(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestByteFallbackJoinsRuns pins ByteFallback: a run of <0xXX> tokens that
// is valid UTF-8 becomes its text; an invalid run gives one U+FFFD per byte.
func TestByteFallbackJoinsRuns(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"a", "<0xC3>", "<0xA9>", "b"}, "aéb"},
		{[]string{"a", "<0xC3>", "<0xA9>", "<0xFF>", "<0x41>", "b", "<0xFF>"}, "a\ufffd\ufffd\ufffd\ufffdb\ufffd"},
		{[]string{"<0x+A>"}, "\n"}, // Rust's from_str_radix takes a sign
		{[]string{"<0xZZ>"}, "<0xZZ>"},
	} {
		if got, _ := Decode(Sequence{ByteFallback{}, Fuse{}}, c.in); got != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}

func TestStripPastTheTokenIsAnError(t *testing.T) {
	if _, err := (&Strip{Content: ' ', Stop: 2}).DecodeChain([]string{" "}); err == nil {
		t.Error("stripping 2 spaces off \" \": no error (tokenizers panics)")
	}
	if got, err := (&Strip{Content: ' ', Stop: 2}).DecodeChain([]string{"a "}); err != nil || got[0] != "a" {
		t.Errorf("stripping \"a \": %q, %v", got, err)
	}
}
