package lib

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Spec names a library by its sonames, most preferred first (CUDA 13 before 12).
type Spec struct {
	Name    string   // what users call it, e.g. "cuBLAS"
	Sonames []string // e.g. libcublas.so.13, libcublas.so.12
	Needs   []Spec   // libraries to load first from the same folder (cuBLASLt for cuBLAS)
}

// The libraries goaccel loads.
var (
	Driver   = Spec{Name: "CUDA driver", Sonames: []string{"libcuda.so.1"}}
	CUBLASLt = Spec{Name: "cuBLASLt", Sonames: []string{"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so.11"}}
	CUBLAS   = Spec{Name: "cuBLAS", Sonames: []string{"libcublas.so.13", "libcublas.so.12", "libcublas.so.11"}, Needs: []Spec{CUBLASLt}}
	NCCL     = Spec{Name: "NCCL", Sonames: []string{"libnccl.so.2"}}
)

// EnvPath is a colon-separated list of folders searched before all others.
const EnvPath = "GOACCEL_CUDA_LIBRARY_PATH"

// Library is an opened shared library.
type Library struct {
	Spec   Spec
	Path   string // what dlopen was given (a soname when the system loader found it)
	handle uintptr
}

// ErrNotFound is wrapped by Open's error when no folder holds the library.
var ErrNotFound = errors.New("library not found")

// Finder locates libraries; its fields default to the process environment and file system.
type Finder struct {
	Getenv func(string) string
	Glob   func(pattern string) ([]string, error)
	// Dlopen opens a path or soname; nil uses purego.Dlopen (RTLD_NOW|RTLD_GLOBAL).
	Dlopen func(path string) (uintptr, error)

	prefixOnce sync.Once
	prefix     string // the python3 on PATH's sys.prefix
}

func (f *Finder) getenv(k string) string {
	if f.Getenv == nil {
		return os.Getenv(k)
	}
	return f.Getenv(k)
}

func (f *Finder) glob(p string) []string {
	g := f.Glob
	if g == nil {
		g = filepath.Glob
	}
	m, _ := g(p)
	return m
}

func (f *Finder) dlopen(path string) (uintptr, error) {
	if f.Dlopen != nil {
		return f.Dlopen(path)
	}
	return systemOpen(path)
}

// Dirs returns the folders searched, in order: GOACCEL_CUDA_LIBRARY_PATH, LD_LIBRARY_PATH,
// /usr/local/cuda*/lib64 (the /usr/local/cuda link, then by version, newest first), the
// driver's folders, then the nvidia/*/lib folders of pip-installed CUDA wheels (PyTorch's cuBLAS
// and NCCL: nvidia/cu13/lib, nvidia/cublas/lib, nvidia/nccl/lib, …) in $VIRTUAL_ENV,
// $CONDA_PREFIX, the sys.prefix of the python3 on PATH, ~/.local and the Python installation
// folders.
func (f *Finder) Dirs() []string {
	fixed := f.fixedDirs()
	return append(fixed, f.pipDirs(fixed)...)
}

// fixedDirs are the folders of Dirs that the environment and the toolkits name.
func (f *Finder) fixedDirs() []string {
	var dirs []string
	for _, ds := range [][]string{filepath.SplitList(f.getenv(EnvPath)), filepath.SplitList(f.getenv("LD_LIBRARY_PATH")),
		newestFirst(f.glob("/usr/local/cuda*/lib64")),
		{"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib/wsl/lib", "/usr/local/nvidia/lib64", "/usr/lib/x86_64-linux-gnu/nvidia/current"}} {
		for _, d := range ds {
			if d != "" && !contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// pipDirs are the nvidia/*/lib folders of Python environments that are not in seen; finding
// them may run the python3 on PATH, so Open looks there last.
func (f *Finder) pipDirs(seen []string) []string {
	var roots, dirs []string
	for _, p := range []string{f.getenv("VIRTUAL_ENV"), f.getenv("CONDA_PREFIX"), f.pythonPrefix()} {
		if p != "" && !contains(roots, p+"/lib/python3*/site-packages") {
			roots = append(roots, p+"/lib/python3*/site-packages")
		}
	}
	if home := f.getenv("HOME"); home != "" {
		roots = append(roots, home+"/.local/lib/python3*/site-packages")
	}
	roots = append(roots, "/usr/local/lib/python3*/dist-packages", "/usr/local/lib/python3*/site-packages",
		"/usr/lib/python3/dist-packages", "/usr/lib/python3*/site-packages", "/opt/conda/lib/python3*/site-packages")
	for _, r := range roots {
		for _, sp := range f.glob(r) {
			// CUDA 13 wheels share nvidia/cu13/lib; CUDA 12 wheels have one folder per library.
			libs := f.glob(sp + "/nvidia/*/lib")
			sort.Strings(libs)
			for _, d := range libs {
				if !contains(seen, d) && !contains(dirs, d) {
					dirs = append(dirs, d)
				}
			}
		}
	}
	return dirs
}

// newestFirst orders toolkit folders (/usr/local/cuda-13.0/lib64, …) by version, newest first,
// comparing the numbers (13.0 after 9.2); the unversioned /usr/local/cuda, the link a machine's
// administrator points at the toolkit to use, comes first.
func newestFirst(dirs []string) []string {
	version := func(d string) []int {
		_, v, ok := strings.Cut(d, "/cuda-")
		if !ok {
			return nil
		}
		v, _, _ = strings.Cut(v, "/")
		var out []int
		for _, p := range strings.Split(v, ".") {
			n, err := strconv.Atoi(p)
			if err != nil {
				break
			}
			out = append(out, n)
		}
		return out
	}
	out := append([]string(nil), dirs...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := version(out[i]), version(out[j])
		if (a == nil) != (b == nil) {
			return a == nil
		}
		if c := slices.Compare(a, b); c != 0 {
			return c > 0
		}
		return out[i] < out[j]
	})
	return out
}

// pythonPrefix returns sys.prefix of the python3 on the Finder's PATH (a virtual environment's
// folder when one is active or first on PATH, as on machines whose PyTorch came from pip), or
// "" when there is none. It runs once per Finder.
func (f *Finder) pythonPrefix() string {
	f.prefixOnce.Do(func() {
		for _, dir := range filepath.SplitList(f.getenv("PATH")) {
			py := filepath.Join(dir, "python3")
			if st, err := os.Stat(py); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			out, err := exec.CommandContext(ctx, py, "-c", "import sys; print(sys.prefix)").Output()
			cancel()
			if err == nil {
				f.prefix = strings.TrimSpace(string(out))
			}
			return
		}
	})
	return f.prefix
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

var (
	cacheMu sync.Mutex
	cache   = map[string]*Library{}
)

// Open opens spec's library once per process (later calls return the same Library).
func Open(spec Spec) (*Library, error) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if l, ok := cache[spec.Name]; ok {
		return l, nil
	}
	l, err := (&Finder{}).Open(spec)
	if err != nil {
		return nil, err
	}
	cache[spec.Name] = l
	return l, nil
}

// Open finds and opens spec's library: first each soname through the system loader
// (LD_LIBRARY_PATH, the loader cache), then each soname in each of Dirs. The libraries spec
// Needs are opened first from the folder where spec's library is found.
func (f *Finder) Open(spec Spec) (*Library, error) {
	if runtime.GOOS != "linux" && f.Dlopen == nil {
		return nil, fmt.Errorf("%s: %w: goaccel uses NVIDIA GPUs on Linux only (this is %s/%s); tensors stay on the CPU",
			spec.Name, ErrNotFound, runtime.GOOS, runtime.GOARCH)
	}
	var tried []string
	if f.getenv(EnvPath) == "" {
		for _, so := range spec.Sonames {
			if h, err := f.dlopen(so); err == nil {
				return &Library{Spec: spec, Path: so, handle: h}, nil
			}
		}
		tried = append(tried, "the system loader")
	}
	dirs, pipDone := f.fixedDirs(), false
	for _, so := range spec.Sonames {
		if !pipDone && !f.holds(dirs, so) {
			dirs, pipDone = append(dirs, f.pipDirs(dirs)...), true
		}
		for _, d := range dirs {
			p := filepath.Join(d, so)
			if _, err := os.Stat(p); err != nil {
				continue
			}
			f.openNeeds(spec, d)
			h, err := f.dlopen(p)
			if err != nil {
				tried = append(tried, fmt.Sprintf("%s (%v)", p, err))
				continue
			}
			return &Library{Spec: spec, Path: p, handle: h}, nil
		}
	}
	if len(tried) < 8 {
		if !pipDone {
			dirs = append(dirs, f.pipDirs(dirs)...)
		}
		tried = append(tried, dirs...)
	}
	return nil, fmt.Errorf("%s (%s): %w; searched %s. Set %s to the folder that holds it", spec.Name,
		strings.Join(spec.Sonames, " or "), ErrNotFound, strings.Join(tried, ", "), EnvPath)
}

// holds reports whether one of dirs has a file named so.
func (f *Finder) holds(dirs []string, so string) bool {
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, so)); err == nil {
			return true
		}
	}
	return false
}

// openNeeds opens spec's dependencies that dir holds, so that spec's library resolves them there
// even without an RPATH; the system loader finds those of a library it found itself.
func (f *Finder) openNeeds(spec Spec, dir string) {
	for _, n := range spec.Needs {
		for _, so := range n.Sonames {
			p := filepath.Join(dir, so)
			if _, err := os.Stat(p); err != nil {
				continue
			}
			if _, err := f.dlopen(p); err == nil {
				break
			}
		}
	}
}

// Sym returns the address of the first of names that the library exports.
func (l *Library) Sym(names ...string) (uintptr, error) {
	for _, n := range names {
		if p, err := systemSym(l.handle, n); err == nil && p != 0 {
			return p, nil
		}
	}
	return 0, fmt.Errorf("%s (%s) has no symbol %s: the library is too old or not the one goaccel expects",
		l.Spec.Name, l.Path, strings.Join(names, " or "))
}

// Bind resolves the symbols named by the `sym` tags of the uintptr fields of the struct dst
// points to. A tag lists alternatives separated by commas (cuMemAlloc_v2,cuMemAlloc); a tag
// ending in ",optional" leaves the field 0 when the library lacks the symbol. The error names the
// first required symbol missing.
func (l *Library) Bind(dst any) error {
	v := reflect.ValueOf(dst).Elem()
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		tag := t.Field(i).Tag.Get("sym")
		if tag == "" {
			continue
		}
		names := strings.Split(tag, ",")
		optional := names[len(names)-1] == "optional"
		if optional {
			names = names[:len(names)-1]
		}
		p, err := l.Sym(names...)
		if err != nil && !optional {
			return err
		}
		v.Field(i).SetUint(uint64(p))
	}
	return nil
}
