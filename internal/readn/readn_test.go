package readn

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"testing"
)

func TestFullReadsExactlyN(t *testing.T) {
	src := bytes.Repeat([]byte("0123456789"), 100_000)
	for _, n := range []int{0, 1, chunk - 1, chunk, chunk + 1, 3*chunk + 7, len(src)} {
		r := bytes.NewReader(src)
		got, err := Full(r, n)
		if err != nil || !bytes.Equal(got, src[:n]) {
			t.Fatalf("Full(%d) = %d bytes, %v", n, len(got), err)
		}
		if r.Len() != len(src)-n {
			t.Fatalf("Full(%d) read %d bytes past the body", n, len(src)-n-r.Len())
		}
	}
}

func TestFullReportsAShortBody(t *testing.T) {
	if _, err := Full(bytes.NewReader([]byte("abc")), 10); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("short body: %v", err)
	}
	if _, err := Full(bytes.NewReader(nil), 10); err != io.EOF {
		t.Fatalf("no body: %v", err)
	}
}

// A length of 1 GiB with 100 bytes behind it costs about 64 KiB, not 1 GiB.
func TestFullAllocatesOnlyWhatArrives(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	Full(bytes.NewReader(make([]byte, 100)), 1<<30)
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Fatalf("allocated %d bytes for a 100-byte body announced as 1 GiB", grew)
	}
}
