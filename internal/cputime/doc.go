// Package cputime reads the process's CPU time, which benchmarks report beside wall time: on a
// shared machine it is the steadier of the two.
//
//	start, t0 := cputime.Process(), time.Now()
//	run()
//	fmt.Printf("%v wall, %v CPU\n", time.Since(t0), cputime.Process()-start)
//
// Files:
//   - cputime.go: Process, the user plus system time from getrusage.
package cputime
