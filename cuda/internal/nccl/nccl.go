package nccl

import (
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"
	"github.com/goaccel/goaccel/cuda/internal/lib"
)

type funcs struct {
	GetVersion        uintptr `sym:"ncclGetVersion"`
	GetUniqueID       uintptr `sym:"ncclGetUniqueId"`
	CommInitRank      uintptr `sym:"ncclCommInitRank"`
	CommAbort         uintptr `sym:"ncclCommAbort"`
	CommDestroy       uintptr `sym:"ncclCommDestroy"`
	CommGetAsyncError uintptr `sym:"ncclCommGetAsyncError"`
	GetErrorString    uintptr `sym:"ncclGetErrorString"`
	AllReduce         uintptr `sym:"ncclAllReduce"`
	AllGather         uintptr `sym:"ncclAllGather"`
	Broadcast         uintptr `sym:"ncclBroadcast"`
	ReduceScatter     uintptr `sym:"ncclReduceScatter"`
}

// UniqueID is ncclUniqueId: 128 opaque bytes that rank 0 creates and every rank passes, by
// value, to CommInitRank.
type UniqueID struct{ Internal [128]byte }

// Library is the bound NCCL.
type Library struct {
	Lib     *lib.Library
	f       funcs
	Version int // e.g. 22805 for 2.28.5

	// commInitRank is ncclCommInitRank through purego's struct-by-value support.
	commInitRank func(comm *uintptr, nranks int32, id UniqueID, rank int32) int32
}

// Load opens and binds NCCL.
func Load() (*Library, error) {
	l, err := lib.Open(lib.NCCL)
	if err != nil {
		return nil, err
	}
	return LoadFrom(l)
}

// LoadFrom binds NCCL in an opened library.
func LoadFrom(l *lib.Library) (*Library, error) {
	n := &Library{Lib: l}
	if err := l.Bind(&n.f); err != nil {
		return nil, err
	}
	purego.RegisterFunc(&n.commInitRank, n.f.CommInitRank)
	var v int32
	if err := n.call("ncclGetVersion", n.f.GetVersion, uintptr(unsafe.Pointer(&v))); err != nil {
		return nil, err
	}
	n.Version = int(v)
	return n, nil
}

// Error is a failed NCCL call.
type Error struct {
	Call   string
	Result int
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s (ncclResult %d)", e.Call, e.Msg, e.Result) }

// InProgress is ncclInProgress: an asynchronous operation has not finished.
const InProgress = 7

func (n *Library) errorOf(call string, r int) error {
	e := &Error{Call: call, Result: r, Msg: "unknown error"}
	if p, _, _ := purego.SyscallN(n.f.GetErrorString, uintptr(r)); p != 0 {
		e.Msg = lib.CString(*(**byte)(unsafe.Pointer(&p)), 1024)
	}
	return e
}

// call runs one NCCL entry point (arguments as for driver.Driver.call).
//
//go:uintptrescapes
func (n *Library) call(name string, fn uintptr, args ...uintptr) error {
	r, _, _ := purego.SyscallN(fn, args...)
	if res := int32(r); res != 0 {
		return n.errorOf(name, int(res))
	}
	return nil
}

// UniqueID creates the id rank 0 shares with the others.
func (n *Library) UniqueID() (UniqueID, error) {
	var id UniqueID
	err := n.call("ncclGetUniqueId", n.f.GetUniqueID, uintptr(unsafe.Pointer(&id)))
	return id, err
}

// Comm is one rank's communicator.
type Comm struct {
	n *Library
	c uintptr
}

// InitRank joins the communicator of nranks identified by id as rank (with this rank's device
// context current). It blocks until every rank has joined.
func (n *Library) InitRank(nranks int, id UniqueID, rank int) (*Comm, error) {
	c := &Comm{n: n}
	if r := n.commInitRank(&c.c, int32(nranks), id, int32(rank)); r != 0 {
		return nil, n.errorOf("ncclCommInitRank", int(r))
	}
	return c, nil
}

// Abort tears the communicator down without waiting for peers (after a peer is lost), making
// every pending NCCL operation of this rank return.
func (c *Comm) Abort() error { return c.n.call("ncclCommAbort", c.n.f.CommAbort, c.c) }

// Destroy frees the communicator after all its operations completed.
func (c *Comm) Destroy() error { return c.n.call("ncclCommDestroy", c.n.f.CommDestroy, c.c) }

// AsyncError returns the communicator's asynchronous error (nil when there is none).
func (c *Comm) AsyncError() error {
	var r int32
	if err := c.n.call("ncclCommGetAsyncError", c.n.f.CommGetAsyncError, c.c, uintptr(unsafe.Pointer(&r))); err != nil {
		return err
	}
	if r != 0 && r != InProgress {
		return c.n.errorOf("NCCL communicator", int(r))
	}
	return nil
}

// DataType is ncclDataType_t.
type DataType int

// Data types.
const (
	Int64    DataType = 4
	Float16  DataType = 6
	Float32  DataType = 7
	Float64  DataType = 8
	BFloat16 DataType = 9
)

// RedOp is ncclRedOp_t.
type RedOp int

// Reductions.
const (
	Sum RedOp = 0
	Max RedOp = 2
	Min RedOp = 3
	Avg RedOp = 4
)

// AllReduce queues recv = op over ranks of send (count elements; in place when equal) on stream.
func (c *Comm) AllReduce(send, recv uintptr, count int, dt DataType, op RedOp, stream uintptr) error {
	return c.n.call("ncclAllReduce", c.n.f.AllReduce, send, recv, uintptr(count), uintptr(dt), uintptr(op), c.c, stream)
}

// AllGather queues recv = every rank's send (count elements each), rank-major.
func (c *Comm) AllGather(send, recv uintptr, count int, dt DataType, stream uintptr) error {
	return c.n.call("ncclAllGather", c.n.f.AllGather, send, recv, uintptr(count), uintptr(dt), c.c, stream)
}

// Broadcast queues copying root's send into every rank's recv (count elements).
func (c *Comm) Broadcast(send, recv uintptr, count int, dt DataType, root int, stream uintptr) error {
	return c.n.call("ncclBroadcast", c.n.f.Broadcast, send, recv, uintptr(count), uintptr(dt), uintptr(root), c.c, stream)
}

// ReduceScatter queues reducing send (ranks × count elements) and leaving chunk r in rank r's
// recv (count elements).
func (c *Comm) ReduceScatter(send, recv uintptr, count int, dt DataType, op RedOp, stream uintptr) error {
	return c.n.call("ncclReduceScatter", c.n.f.ReduceScatter, send, recv, uintptr(count), uintptr(dt), uintptr(op), c.c, stream)
}
