package wire

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSignMatchesPythonHMAC(t *testing.T) {
	// Expected value computed with Python's hmac module over the same frames.
	c := NewCodec([]byte("secret"))
	got := c.Sign([]byte(`{"a":1}`), []byte(`{}`), []byte(`{}`), []byte(`{"code":"1"}`))
	want := "4cd721348272a9d38f52e40f18755f0c1547d1172085474a01e7af8f3442da14"
	if got != want {
		t.Fatalf("Sign = %s, want %s", got, want)
	}
	if s := NewCodec(nil).Sign([]byte("x")); s != "" {
		t.Fatalf("empty key must not sign, got %q", s)
	}
}

func sample(t *testing.T) *Message {
	t.Helper()
	parent := NewHeader("execute_request", "client")
	m, err := NewMessage("execute_reply", "kernel", &parent, map[string]any{"status": "ok", "execution_count": 3})
	if err != nil {
		t.Fatal(err)
	}
	m.Identities = [][]byte{[]byte("id-1"), []byte("id-2")}
	m.Buffers = [][]byte{{0, 1, 2}}
	return m
}

func TestEncodeDecodeRoundTripKeepsEveryPart(t *testing.T) {
	for _, key := range []string{"", "k3y"} {
		c := NewCodec([]byte(key))
		m := sample(t)
		frames, err := c.Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Decode(frames)
		if err != nil {
			t.Fatalf("key %q: %v", key, err)
		}
		if !reflect.DeepEqual(got.Identities, m.Identities) || got.Header != m.Header ||
			*got.Parent != *m.Parent || !reflect.DeepEqual(got.Buffers, m.Buffers) {
			t.Fatalf("key %q: round trip mismatch:\n got %+v\nwant %+v", key, got, m)
		}
		var content map[string]any
		if err := got.Unmarshal(&content); err != nil || content["status"] != "ok" {
			t.Fatalf("content = %v, %v", content, err)
		}
	}
}

func TestEncodeWritesEmptyObjectsForMissingParts(t *testing.T) {
	c := NewCodec(nil)
	frames, err := c.Encode(&Message{Header: NewHeader("status", "s")})
	if err != nil {
		t.Fatal(err)
	}
	// delimiter, signature, header, parent, metadata, content
	if len(frames) != 6 || string(frames[3]) != "{}" || string(frames[4]) != "{}" || string(frames[5]) != "{}" {
		t.Fatalf("frames = %q", frames)
	}
}

func TestDecodeRejectsMalformedOrForgedMessages(t *testing.T) {
	c := NewCodec([]byte("key"))
	good, err := c.Encode(sample(t))
	if err != nil {
		t.Fatal(err)
	}
	mutate := func(f func(fr [][]byte) [][]byte) [][]byte {
		cp := make([][]byte, len(good))
		for i := range good {
			cp[i] = append([]byte(nil), good[i]...)
		}
		return f(cp)
	}
	tests := []struct {
		name   string
		frames [][]byte
		want   error  // errors.Is target, or nil to match text
		text   string // substring of the error
	}{
		{"no frames", nil, ErrNoDelimiter, ""},
		{"garbage", [][]byte{[]byte("hello"), {0xff, 0}}, ErrNoDelimiter, ""},
		{"too few frames", mutate(func(f [][]byte) [][]byte { return f[:6] }), ErrShort, ""},
		{"missing signature", mutate(func(f [][]byte) [][]byte { f[3] = nil; return f }), ErrSignature, ""},
		{"non-hex signature", mutate(func(f [][]byte) [][]byte { f[3] = []byte("zz"); return f }), ErrSignature, ""},
		{"tampered content", mutate(func(f [][]byte) [][]byte { f[7] = []byte(`{"status":"error"}`); return f }), ErrSignature, ""},
		{"flipped signature byte", mutate(func(f [][]byte) [][]byte { f[3][0] ^= 1; return f }), ErrSignature, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Decode(tt.frames)
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) || !strings.Contains(err.Error(), tt.text) {
				t.Fatalf("Decode error = %v, want %v %q", err, tt.want, tt.text)
			}
		})
	}
}

func TestDecodeRejectsInvalidJSONEvenWhenSigned(t *testing.T) {
	c := NewCodec([]byte("key"))
	hdr, _ := json.Marshal(NewHeader("execute_request", "s"))
	tests := []struct {
		name                          string
		header, parent, meta, content string
		text                          string
	}{
		{"bad header", "{", "{}", "{}", "{}", "decode header"},
		{"no msg_type", `{"msg_id":"x"}`, "{}", "{}", "{}", "msg_type is missing"},
		{"bad parent", string(hdr), "[1]", "{}", "{}", "parent header"},
		{"bad metadata", string(hdr), "{}", "nope", "{}", "metadata"},
		{"bad content", string(hdr), "{}", "{}", `{"code":`, "content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts := [][]byte{[]byte(tt.header), []byte(tt.parent), []byte(tt.meta), []byte(tt.content)}
			frames := append([][]byte{[]byte(Delimiter), []byte(c.Sign(parts...))}, parts...)
			_, err := c.Decode(frames)
			if err == nil || !strings.Contains(err.Error(), tt.text) {
				t.Fatalf("Decode error = %v, want it to mention %q", err, tt.text)
			}
		})
	}
}

func TestUnsignedMessagesAcceptedWithEmptyKey(t *testing.T) {
	hdr, _ := json.Marshal(NewHeader("kernel_info_request", "s"))
	frames := [][]byte{[]byte("peer"), []byte(Delimiter), nil, hdr, []byte("{}"), []byte("{}"), []byte("{}")}
	m, err := NewCodec(nil).Decode(frames)
	if err != nil || m.Header.MsgType != "kernel_info_request" || m.Parent != nil || string(m.Identities[0]) != "peer" {
		t.Fatalf("Decode = %+v, %v", m, err)
	}
}

func TestHeaderDateHasMicrosecondsAndUTC(t *testing.T) {
	d := Now(time.Date(2026, 1, 2, 3, 4, 5, 6007000, time.FixedZone("x", 3600)))
	if d != "2026-01-02T02:04:05.006007Z" {
		t.Fatalf("Now = %s", d)
	}
	h := NewHeader("status", "sess")
	if h.Version != "5.3" || h.MsgID == "" || h.Session != "sess" || h.Username == "" {
		t.Fatalf("header = %+v", h)
	}
}

func TestNewReplyCarriesIdentitiesAndParent(t *testing.T) {
	req := sample(t)
	rep, err := NewReply(req, "kernel_info_reply", "kernel", map[string]string{"status": "ok"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Parent.MsgID != req.Header.MsgID || len(rep.Identities) != 2 || rep.Header.Session != "kernel" {
		t.Fatalf("reply = %+v", rep)
	}
}
