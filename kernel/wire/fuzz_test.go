package wire

import (
	"bytes"
	"testing"
)

// FuzzDecode feeds arbitrary frames (split on 0x00 0x00) to Decode: it must
// never panic, and whatever it accepts must re-encode and decode to the same header.
func FuzzDecode(f *testing.F) {
	c := NewCodec(nil)
	m := &Message{Header: NewHeader("execute_request", "s"), Content: []byte(`{"code":"1+1"}`)}
	frames, _ := c.Encode(m)
	f.Add(bytes.Join(frames, []byte{0, 0}))
	f.Add([]byte("<IDS|MSG>"))
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		frames := bytes.Split(data, []byte{0, 0})
		got, err := c.Decode(frames)
		if err != nil {
			return
		}
		again, err := c.Encode(got)
		if err != nil {
			t.Fatalf("re-encode of accepted message failed: %v", err)
		}
		back, err := c.Decode(again)
		if err != nil {
			t.Fatalf("decode of re-encoded message failed: %v", err)
		}
		if back.Header != got.Header {
			t.Fatalf("header changed: %+v vs %+v", back.Header, got.Header)
		}
	})
}
