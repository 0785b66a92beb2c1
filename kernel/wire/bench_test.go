package wire

import (
	"strings"
	"testing"
)

func benchMessage(b *testing.B) (*Codec, [][]byte, *Message) {
	c := NewCodec([]byte("0123456789abcdef0123456789abcdef"))
	m, err := NewMessage("stream", "kernel", nil, map[string]any{"name": "stdout", "text": strings.Repeat("x", 8<<10)})
	if err != nil {
		b.Fatal(err)
	}
	frames, err := c.Encode(m)
	if err != nil {
		b.Fatal(err)
	}
	return c, frames, m
}

// BenchmarkEncode signs and encodes an 8 KiB stream message (one output batch).
func BenchmarkEncode(b *testing.B) {
	c, _, m := benchMessage(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Encode(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecode verifies and decodes the same message.
func BenchmarkDecode(b *testing.B) {
	c, frames, _ := benchMessage(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Decode(frames); err != nil {
			b.Fatal(err)
		}
	}
}
