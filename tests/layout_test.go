package tests

import (
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// layer names the top-level folders from the bottom up: a package may import
// packages of its own layer or of a lower one, never of a higher one. The
// folders of one layer do not import each other except as listed in sideways.
var layers = [][]string{
	{"internal"},        // small leaves that import nothing of the project (but the host, which gathers two)
	{"tensors/backend"}, // the device interface, its devices (CPU, simulated), the default devices and the device suite
	{"cuda", "tensors"}, // a device (registers itself); the front users call
	{"nn", "optim", "data", "dist", "tokenizers"}, // layers, optimizers, datasets, the process group, tokenizers
	{"transformers"},                       // pretrained model families (Hugging Face compatibility)
	{"cuda/nccl", "display", "datasets"},   // NCCL collectives for dist; rich output; text datasets
	{"widgets"},                            // Jupyter widgets (over internal/comm)
	{"plots", "progress"},                  // figures and progress bars
	{"accelerate"},                         // the Accelerator
	{"notebook_launcher"},                  // starting workers, from programs and from cells
	{"magics"},                             // %… lines
	{"kernel"},                             // the Jupyter side: protocol, sessions, cells, the interpreter
	{"cmd", "tests", "bench", "notebooks"}, // the binary and what drives it
}

// sideways are the imports allowed between folders of one layer (none today).
var sideways = map[[2]string]bool{}

// hostLeaves are the only imports between packages of the top-level
// internal/: the process's host (internal/host) carries the services of
// two leaves, the comms of widgets and the link to the process's launcher.
var hostLeaves = map[[2]string]bool{
	{"internal/host", "internal/comm"}:       true,
	{"internal/host", "internal/workerinfo"}: true,
}

// folderOf returns the entry of layers that owns a package path relative to
// the module ("tensors/backend/cpu" → "tensors/backend").
func folderOf(rel string) (folder string, layer int) {
	best, bestLayer := "", -1
	for i, l := range layers {
		for _, f := range l {
			if (rel == f || strings.HasPrefix(rel, f+"/")) && len(f) > len(best) {
				best, bestLayer = f, i
			}
		}
	}
	return best, bestLayer
}

// TestImportsRunOneWay checks every import between the project's packages
// against the layers: the kernel imports notebook_launcher and never the
// other way, a device registers itself with tensors and tensors imports no
// device, and the top-level internal/ holds only leaves (and the host,
// which imports the two leaves whose services it carries: hostLeaves).
func TestImportsRunOneWay(t *testing.T) {
	const module = "github.com/goaccel/goaccel"
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports,TestImports,XTestImports", module+"/...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	checked := 0
	for {
		var p struct {
			ImportPath                         string
			Imports, TestImports, XTestImports []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if strings.HasPrefix(rel, "third_party") {
			continue
		}
		from, fromLayer := folderOf(rel)
		if fromLayer < 0 {
			t.Errorf("package %s is in no layer of tests/layout_test.go: add its folder", rel)
			continue
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			irel := strings.TrimPrefix(imp, module+"/")
			to, toLayer := folderOf(irel)
			checked++
			switch {
			case from == "internal" && rel != irel && !hostLeaves[[2]string{rel, irel}]:
				t.Errorf("%s imports %s: the top-level internal/ keeps only leaves that import nothing of the project (move it under the folder that owns it)", rel, irel)
			case toLayer > fromLayer:
				t.Errorf("%s imports %s: %s sits above %s in the layers (tests/layout_test.go), so the import runs the wrong way", rel, irel, to, from)
			case toLayer == fromLayer && to != from && !sideways[[2]string{from, to}]:
				t.Errorf("%s imports %s: %s and %s are side by side (tests/layout_test.go lists the allowed ones)", rel, irel, from, to)
			}
		}
		// Tests may drive higher layers (an accelerate test launches workers
		// through notebook_launcher), but only the kernel's own tests and the
		// end-to-end tests reach into the kernel.
		for _, imp := range append(p.TestImports, p.XTestImports...) {
			irel := strings.TrimPrefix(imp, module+"/")
			if to, _ := folderOf(irel); to == "kernel" && from != "kernel" && from != "cmd" && from != "tests" {
				t.Errorf("a test of %s imports %s: only the kernel's tests and tests/ reach into the kernel", rel, irel)
			}
		}
	}
	if checked < 120 {
		t.Fatalf("only %d imports between the project's packages were checked; go list found too little", checked)
	}
}

// TestTopLevelInternalIsSmall keeps the top-level internal/ to small leaves:
// at most a tenth of the project's hand-written Go.
func TestTopLevelInternalIsSmall(t *testing.T) {
	count := func(args ...string) int {
		cmd := exec.Command("sh", "-c", fmt.Sprintf(`git ls-files %s | grep '\.go$' | grep -v _test.go | grep -v '/testdata/' | grep -v '^third_party/' | xargs grep -L '^// Code generated' | xargs cat | wc -l`, strings.Join(args, " ")))
		cmd.Dir = ".."
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("count lines: %v", err)
		}
		var n int
		fmt.Sscan(string(out), &n)
		return n
	}
	all, internal := count(), count("internal/")
	t.Logf("hand-written Go: %d lines, %d under internal/", all, internal)
	if all < 10000 {
		t.Fatalf("counted only %d lines of hand-written Go; the count is broken", all)
	}
	if internal*10 > all {
		t.Errorf("internal/ holds %d of %d hand-written lines, more than a tenth: move packages under the folders that own them", internal, all)
	}
}

// TestImportsOfDevicesGoThroughTheRegistry: package tensors imports no device, only the device
// interface and the one package that links in the default devices (every device, the CPU
// included, registers itself by name); and the device conformance suite is plumbing that only
// tests of devices import.
func TestImportsOfDevicesGoThroughTheRegistry(t *testing.T) {
	const module = "github.com/goaccel/goaccel"
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports", module+"/...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := map[string]bool{module + "/tensors/backend": true, module + "/tensors/backend/defaults": true}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	sawTensors := false
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		for _, imp := range p.Imports {
			if p.ImportPath == module+"/tensors" && strings.HasPrefix(imp, module+"/tensors/backend") && !allowed[imp] {
				t.Errorf("package tensors imports %s: it opens devices by name (backend.Open); link a default device in through tensors/backend/defaults", imp)
			}
			if imp == module+"/tensors/backend/backendtest" {
				t.Errorf("%s imports the device suite tensors/backend/backendtest, which only tests of devices may", p.ImportPath)
			}
		}
		sawTensors = sawTensors || p.ImportPath == module+"/tensors"
	}
	if !sawTensors {
		t.Fatal("go list did not list package tensors")
	}
}
