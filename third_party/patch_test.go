// Package thirdparty holds the patched copies of dependencies goaccel
// carries (see README.md); its test checks that each patch file is the real
// difference between the upstream release and the copy.
package thirdparty

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// zmq4.patch must be exactly what the vendored copy changes in v0.17.0, so
// the README's account of the patch stays true.
func TestZMQ4PatchIsTheDiffOfTheVendoredCopy(t *testing.T) {
	want, err := os.ReadFile("zmq4.patch")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("../scripts/zmq4-patch.sh")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("scripts/zmq4-patch.sh: %v\n%s", err, stderr.Bytes())
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("third_party/zmq4.patch is not the diff between go-zeromq/zmq4 v0.17.0 and third_party/zmq4; refresh it with `scripts/zmq4-patch.sh > third_party/zmq4.patch`")
	}
}

// goaccel.patch must be exactly what the copy of yaegi changes in v0.16.1,
// so that README.goaccel.md's account of each change stays true.
func TestYaegiPatchIsTheDiffOfTheCopy(t *testing.T) {
	want, err := os.ReadFile("yaegi/goaccel.patch")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("../scripts/yaegi-patch.sh")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("scripts/yaegi-patch.sh: %v\n%s", err, stderr.Bytes())
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("third_party/yaegi/goaccel.patch is not the diff between traefik/yaegi v0.16.1 and third_party/yaegi; refresh it with `scripts/yaegi-patch.sh > third_party/yaegi/goaccel.patch`")
	}
}

// go-nvml.patch must be exactly what the copy of go-nvml changes in
// v0.13.4-1, so that README.md's account of it stays true.
func TestGoNVMLPatchIsTheDiffOfTheCopy(t *testing.T) {
	want, err := os.ReadFile("go-nvml.patch")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("../scripts/go-nvml-patch.sh")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("scripts/go-nvml-patch.sh: %v\n%s", err, stderr.Bytes())
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("third_party/go-nvml.patch is not the diff between NVIDIA/go-nvml v0.13.4-1 and third_party/go-nvml; refresh it with `scripts/go-nvml-patch.sh > third_party/go-nvml.patch`")
	}
}

// go-nvml's cgo wrappers call NVML functions its nvml.h marks deprecated:
// compiled as released, the package printed a C compiler warning for each
// (29 lines of them) on every cold build of goaccel. The build here runs
// the C compiler again whatever the build cache holds: CGO_CFLAGS with a
// define of its own is part of the cached build's key.
func TestGoNVMLCompilesWithoutCompilerWarnings(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles go-nvml's cgo code")
	}
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skipf("cgo is off here (go env CGO_ENABLED: %s, %v): go-nvml is not compiled", out, err)
	}
	cmd := exec.Command("go", "build", "github.com/NVIDIA/go-nvml/pkg/nvml")
	cmd.Env = append(os.Environ(), fmt.Sprintf("CGO_CFLAGS=-O2 -g -DGOACCEL_WARNING_CHECK=%d", time.Now().UnixNano()))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build github.com/NVIDIA/go-nvml/pkg/nvml: %v\n%s", err, out)
	}
	if len(out) > 0 {
		t.Errorf("go build github.com/NVIDIA/go-nvml/pkg/nvml printed (want nothing; see third_party/README.md):\n%s", out)
	}
}
