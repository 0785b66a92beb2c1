package cublas

import (
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"
	"github.com/goaccel/goaccel/cuda/internal/lib"
)

type funcs struct {
	Create              uintptr `sym:"cublasCreate_v2"`
	Destroy             uintptr `sym:"cublasDestroy_v2"`
	SetStream           uintptr `sym:"cublasSetStream_v2"`
	SetMathMode         uintptr `sym:"cublasSetMathMode"`
	GetVersion          uintptr `sym:"cublasGetVersion_v2"`
	GetStatusName       uintptr `sym:"cublasGetStatusName,optional"`
	SgemmStridedBatched uintptr `sym:"cublasSgemmStridedBatched"`
	DgemmStridedBatched uintptr `sym:"cublasDgemmStridedBatched"`
	GemmStridedBatchEx  uintptr `sym:"cublasGemmStridedBatchedEx"`
}

// Library is the bound cuBLAS.
type Library struct {
	Lib     *lib.Library
	f       funcs
	Version int
}

// Load opens and binds cuBLAS.
func Load() (*Library, error) {
	l, err := lib.Open(lib.CUBLAS)
	if err != nil {
		return nil, err
	}
	return LoadFrom(l)
}

// LoadFrom binds cuBLAS in an opened library.
func LoadFrom(l *lib.Library) (*Library, error) {
	c := &Library{Lib: l}
	if err := l.Bind(&c.f); err != nil {
		return nil, err
	}
	return c, nil
}

// Error is a failed cuBLAS call.
type Error struct {
	Call   string
	Status int
	Name   string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Call, e.Name) }

// call runs one cuBLAS entry point (arguments as for driver.Driver.call).
//
//go:uintptrescapes
func (c *Library) call(name string, fn uintptr, args ...uintptr) error {
	r, _, _ := purego.SyscallN(fn, args...)
	if st := int32(r); st != 0 {
		e := &Error{Call: name, Status: int(st), Name: statusName(int(st))}
		if c.f.GetStatusName != 0 {
			var p *byte
			if r, _, _ := purego.SyscallN(c.f.GetStatusName, uintptr(st)); r != 0 {
				p = *(**byte)(unsafe.Pointer(&r))
				e.Name = lib.CString(p, 256)
			}
		}
		return e
	}
	return nil
}

func statusName(st int) string {
	switch st {
	case 1:
		return "CUBLAS_STATUS_NOT_INITIALIZED"
	case 3:
		return "CUBLAS_STATUS_ALLOC_FAILED"
	case 7:
		return "CUBLAS_STATUS_INVALID_VALUE"
	case 8:
		return "CUBLAS_STATUS_ARCH_MISMATCH"
	case 11:
		return "CUBLAS_STATUS_MAPPING_ERROR"
	case 13:
		return "CUBLAS_STATUS_EXECUTION_FAILED"
	case 14:
		return "CUBLAS_STATUS_INTERNAL_ERROR"
	case 15:
		return "CUBLAS_STATUS_NOT_SUPPORTED"
	}
	return fmt.Sprintf("cublasStatus %d", st)
}

// Handle is a cuBLAS context bound to one device (create it with that device's context current).
type Handle struct {
	c *Library
	h uintptr
}

// Create creates a handle on the current device.
func (c *Library) Create() (*Handle, error) {
	h := &Handle{c: c}
	if err := c.call("cublasCreate", c.f.Create, uintptr(unsafe.Pointer(&h.h))); err != nil {
		return nil, err
	}
	var v int32
	if err := c.call("cublasGetVersion", c.f.GetVersion, h.h, uintptr(unsafe.Pointer(&v))); err == nil {
		c.Version = int(v)
	}
	return h, nil
}

// Destroy releases the handle.
func (h *Handle) Destroy() error { return h.c.call("cublasDestroy", h.c.f.Destroy, h.h) }

// SetStream makes the handle queue its work on stream.
func (h *Handle) SetStream(stream uintptr) error {
	return h.c.call("cublasSetStream", h.c.f.SetStream, h.h, stream)
}

// SetTF32 lets float32 products use TF32 tensor cores (about 10 mantissa bits per product)
// when on, and keeps full float32 products when off (PyTorch's allow_tf32 = False default).
func (h *Handle) SetTF32(on bool) error {
	mode := uintptr(0) // CUBLAS_DEFAULT_MATH
	if on {
		mode = 3 // CUBLAS_TF32_TENSOR_OP_MATH
	}
	return h.c.call("cublasSetMathMode", h.c.f.SetMathMode, h.h, mode)
}

// Op is a cuBLAS transpose operation.
type Op int

// Operations.
const (
	OpN Op = 0
	OpT Op = 1
)

// Type is a cudaDataType.
type Type int

// Data types.
const (
	R32F  Type = 0
	R64F  Type = 1
	R16F  Type = 2
	R16BF Type = 14
)

// computeType32F is CUBLAS_COMPUTE_32F: float32 accumulation.
const computeType32F = 68

// gemmDefault is CUBLAS_GEMM_DEFAULT (the library picks, tensor cores included).
const gemmDefault = -1

// GemmBatch describes a column-major strided batched product C = α·op(A)·op(B) + β·C over
// device pointers (strides in elements).
type GemmBatch struct {
	TransA, TransB      Op
	M, N, K             int
	A                   uintptr
	LDA                 int
	StrideA             int64
	B                   uintptr
	LDB                 int
	StrideB             int64
	C                   uintptr
	LDC                 int
	StrideC             int64
	Batch               int
	Alpha, Beta         float64
	AType, BType, CType Type // Ex only: element types of A/B (16-bit) and C (32F)
}

// Sgemm runs a float32 product.
func (h *Handle) Sgemm(g GemmBatch) error {
	a, b := float32(g.Alpha), float32(g.Beta)
	return h.c.call("cublasSgemmStridedBatched", h.c.f.SgemmStridedBatched, h.h, uintptr(g.TransA), uintptr(g.TransB),
		uintptr(g.M), uintptr(g.N), uintptr(g.K), uintptr(unsafe.Pointer(&a)), g.A, uintptr(g.LDA), uintptr(g.StrideA),
		g.B, uintptr(g.LDB), uintptr(g.StrideB), uintptr(unsafe.Pointer(&b)), g.C, uintptr(g.LDC), uintptr(g.StrideC), uintptr(g.Batch))
}

// Dgemm runs a float64 product.
func (h *Handle) Dgemm(g GemmBatch) error {
	a, b := g.Alpha, g.Beta
	return h.c.call("cublasDgemmStridedBatched", h.c.f.DgemmStridedBatched, h.h, uintptr(g.TransA), uintptr(g.TransB),
		uintptr(g.M), uintptr(g.N), uintptr(g.K), uintptr(unsafe.Pointer(&a)), g.A, uintptr(g.LDA), uintptr(g.StrideA),
		g.B, uintptr(g.LDB), uintptr(g.StrideB), uintptr(unsafe.Pointer(&b)), g.C, uintptr(g.LDC), uintptr(g.StrideC), uintptr(g.Batch))
}

// GemmEx runs a product of 16-bit A and B (AType, BType) into float32 C with float32
// accumulation on tensor cores.
func (h *Handle) GemmEx(g GemmBatch) error {
	a, b := float32(g.Alpha), float32(g.Beta)
	gd := int32(gemmDefault)
	return h.c.call("cublasGemmStridedBatchedEx", h.c.f.GemmStridedBatchEx, h.h, uintptr(g.TransA), uintptr(g.TransB),
		uintptr(g.M), uintptr(g.N), uintptr(g.K), uintptr(unsafe.Pointer(&a)),
		g.A, uintptr(g.AType), uintptr(g.LDA), uintptr(g.StrideA),
		g.B, uintptr(g.BType), uintptr(g.LDB), uintptr(g.StrideB), uintptr(unsafe.Pointer(&b)),
		g.C, uintptr(g.CType), uintptr(g.LDC), uintptr(g.StrideC), uintptr(g.Batch), computeType32F, uintptr(uint32(gd)))
}
