package kernels

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// sourcesHash hashes src/ as genptx.sh does: each file's name and contents in name order.
func sourcesHash(t *testing.T) string {
	t.Helper()
	ents, err := os.ReadDir("src")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join("src", n))
		if err != nil {
			t.Fatal(err)
		}
		h.Write([]byte(n + "\n"))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestCommittedPTXIsCompiledFromTheSources needs no toolkit: the PTX records the hash of the
// sources it was compiled from.
func TestCommittedPTXIsCompiledFromTheSources(t *testing.T) {
	if got, want := SourcesHash(), sourcesHash(t); got != want {
		t.Fatalf("kernels.ptx was compiled from sources with hash %s; src/ now hashes to %s: run `make ptx` and commit kernels.ptx", got, want)
	}
}

// compilerLine is nvcc's version line in PTX headers and in `nvcc --version`.
var compilerLine = regexp.MustCompile(`Cuda compilation tools, release [0-9.]+, V[0-9.]+`)

// TestRegeneratedPTXMatchesTheCommittedOne recompiles the sources with nvcc (CI installs
// Debian's nvidia-cuda-toolkit) and compares byte for byte when nvcc is the release that made
// the committed PTX.
func TestRegeneratedPTXMatchesTheCommittedOne(t *testing.T) {
	nvcc, err := exec.LookPath("nvcc")
	if err != nil {
		t.Skip("nvcc is not installed (scripts/deps.sh installs nvidia-cuda-toolkit)")
	}
	ver, err := exec.Command(nvcc, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "k.ptx")
	cmd := exec.Command("bash", "genptx.sh", out)
	cmd.Env = append(os.Environ(), "NVCC="+nvcc)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("genptx.sh: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	have, want := compilerLine.Find(ver), compilerLine.Find(PTX)
	if !bytes.Equal(have, want) {
		t.Skipf("nvcc here is %q, the committed PTX was made by %q: byte comparison skipped (it compiled)", have, want)
	}
	if !bytes.Equal(got, PTX) {
		t.Fatal("kernels.ptx differs from what `make ptx` produces from src/: run `make ptx` and commit kernels.ptx")
	}
}

// TestPTXCompilesForHopperWithoutSpills runs ptxas for sm_90 (the H200) on the embedded PTX and
// fails on any register spill, which would slow the kernel down.
func TestPTXCompilesForHopperWithoutSpills(t *testing.T) {
	ptxas, err := exec.LookPath("ptxas")
	if err != nil {
		t.Skip("ptxas is not installed (scripts/deps.sh installs nvidia-cuda-toolkit)")
	}
	in := filepath.Join(t.TempDir(), "k.ptx")
	if err := os.WriteFile(in, PTX, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := exec.Command(ptxas, "-arch=sm_90", "-v", "-o", os.DevNull, in).CombinedOutput()
	if err != nil {
		t.Fatalf("ptxas -arch=sm_90: %v\n%s", err, b)
	}
	report := string(b)
	fn := regexp.MustCompile(`Compiling entry function '(\w+)'`)
	spill := regexp.MustCompile(`(\d+) bytes spill stores, (\d+) bytes spill loads`)
	var cur string
	n := 0
	for _, line := range strings.Split(report, "\n") {
		if m := fn.FindStringSubmatch(line); m != nil {
			cur = m[1]
			n++
		}
		if m := spill.FindStringSubmatch(line); m != nil && (m[1] != "0" || m[2] != "0") {
			t.Errorf("%s spills registers: %s", cur, strings.TrimSpace(line))
		}
	}
	if n < 40 {
		t.Fatalf("ptxas compiled %d kernels, expected every kernel of the module:\n%s", n, report)
	}
}
