// Command fakecuda builds and reports on the emulated CUDA device of the tests, for
// `make test-cuda-emulated` and `make test-cuda-tsan` (scripts/test-cuda-emulated.sh):
//
//	fakecuda build DIR        install the fake libcuda, cuBLAS and NCCL into DIR
//	fakecuda coverage FILE    print "emulated kernels launched: N distinct of M" from the
//	                          kernel names FAKE_CUDA_COVERAGE collected in FILE, and the rest
//	fakecuda replay DIR       run the launches FAKE_CUDA_CAPTURE wrote to DIR under ThreadSanitizer
//	fakecuda sources DIR      write the sources the library is compiled from into DIR
package main

import (
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"

	"github.com/goaccel/goaccel/cuda/internal/fakelib"
	"github.com/goaccel/goaccel/cuda/internal/kernels"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: fakecuda build DIR | coverage FILE | replay DIR | sources DIR")
		os.Exit(2)
	}
	var err error
	switch arg := os.Args[2]; os.Args[1] {
	case "build":
		if err = os.MkdirAll(arg, 0o755); err == nil {
			err = fakelib.Build(arg)
		}
	case "coverage":
		err = coverage(arg)
	case "replay":
		err = replay(arg)
	case "sources":
		if err = os.MkdirAll(arg, 0o755); err == nil {
			err = fakelib.WriteSources(arg)
		}
	default:
		err = fmt.Errorf("unknown command %q (build, coverage, replay, sources)", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakecuda:", err)
		os.Exit(1)
	}
}

// coverage compares the kernels launched with the entries of the embedded PTX; it fails when
// none was launched (the suite did not reach the emulator at all).
func coverage(file string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	launched := map[string]bool{}
	for _, n := range strings.Fields(string(b)) {
		launched[n] = true
	}
	ents, err := kernels.Entries()
	if err != nil {
		return err
	}
	var missing []string
	n := 0
	for _, e := range ents {
		if launched[e.Name] {
			n++
		} else {
			missing = append(missing, e.Name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		fmt.Printf("never launched: %s\n", strings.Join(missing, " "))
	}
	fmt.Printf("emulated kernels launched: %d distinct of %d\n", n, len(ents))
	if n == 0 {
		return fmt.Errorf("no kernel ran on the emulated device")
	}
	return nil
}

func replay(dir string) error {
	bin, err := fakelib.BuildReplay()
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, dir)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), "TSAN_OPTIONS=halt_on_error=1 exitcode=66 "+os.Getenv("TSAN_OPTIONS"))
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w", bin, dir, err)
	}
	return nil
}
