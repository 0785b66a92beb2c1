package gemm

import (
	"fmt"
	"runtime"
	"sync/atomic"
)

var threads atomic.Int64

// SetThreads sets how many goroutines one large call may use; n < 1 restores
// the default, runtime.GOMAXPROCS(0).
func SetThreads(n int) {
	if n < 1 {
		n = 0
	}
	threads.Store(int64(n))
}

// Threads reports how many goroutines one large call may use.
func Threads() int {
	if n := threads.Load(); n > 0 {
		return int(n)
	}
	return runtime.GOMAXPROCS(0)
}

// checkArgs panics with a message naming the bad argument, as BLAS's xerbla
// does: a wrong shape here is a programming error in the caller.
func checkArgs(name string, transA, transB bool, m, n, k, lda, ldb, ldc, la, lb, lc int) {
	if m < 0 || n < 0 || k < 0 {
		panic(fmt.Sprintf("gemm.%s: negative size m=%d n=%d k=%d", name, m, n, k))
	}
	rowsA, colsA := m, k
	if transA {
		rowsA, colsA = k, m
	}
	rowsB, colsB := k, n
	if transB {
		rowsB, colsB = n, k
	}
	check := func(what string, rows, cols, ld, have int) {
		if ld < cols || ld < 0 {
			panic(fmt.Sprintf("gemm.%s: leading dimension of %s is %d, need at least %d (its row length)", name, what, ld, cols))
		}
		if rows > 0 && cols > 0 && have < (rows-1)*ld+cols {
			panic(fmt.Sprintf("gemm.%s: %s has %d elements, a %d×%d matrix with leading dimension %d needs %d", name, what, have, rows, cols, ld, (rows-1)*ld+cols))
		}
	}
	check("A", rowsA, colsA, lda, la)
	check("B", rowsB, colsB, ldb, lb)
	check("C", m, n, ldc, lc)
}
