package nccl_test

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/goaccel/goaccel/cuda/internal/fakelib"
	"github.com/goaccel/goaccel/cuda/internal/lib"
	"github.com/goaccel/goaccel/cuda/internal/nccl"
)

// TestUniqueIDTravelsByValue checks the one call that takes a 128-byte struct by value: the
// fake NCCL logs the bytes it received.
func TestUniqueIDTravelsByValue(t *testing.T) {
	l, ctl, err := fakelib.Load(t.TempDir(), lib.NCCL)
	if err != nil {
		t.Fatal(err)
	}
	n, err := nccl.LoadFrom(l)
	if err != nil {
		t.Fatal(err)
	}
	if n.Version != 22805 {
		t.Fatalf("version %d", n.Version)
	}
	id, err := n.UniqueID()
	if err != nil {
		t.Fatal(err)
	}
	id.Internal[5] = 99 // what another rank received through the store
	c, err := n.InitRank(4, id, 3)
	if err != nil {
		t.Fatal(err)
	}
	var sum uint32
	for _, b := range id.Internal {
		sum = sum*31 + uint32(b)
	}
	want := fmt.Sprintf("ncclCommInitRank nranks=4 rank=3 id0=%d id127=%d idsum=%d", int8(id.Internal[0]), int8(id.Internal[127]), sum)
	buf := []float32{1, 2, 3}
	p := uintptr(unsafe.Pointer(&buf[0]))
	if err := c.AllReduce(p, p, 3, nccl.Float32, nccl.Avg, 0); err != nil {
		t.Fatal(err)
	}
	if err := c.Broadcast(p, p, 3, nccl.Float32, 2, 0); err != nil {
		t.Fatal(err)
	}
	if err := c.Abort(); err != nil {
		t.Fatal(err)
	}
	log := ctl.Log()
	for _, w := range []string{want, "ncclAllReduce n=3 dt=7 op=4", "ncclBroadcast n=3 dt=7 root=2", "ncclCommAbort"} {
		if !strings.Contains(log, w) {
			t.Errorf("log lacks %q:\n%s", w, log)
		}
	}
}
