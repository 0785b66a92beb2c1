// Package thirdparty holds the patched copies of dependencies goaccel
// carries (see README.md); its test checks that each patch file is the real
// difference between the upstream release and the copy.
package thirdparty

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
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
