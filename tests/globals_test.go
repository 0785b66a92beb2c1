package tests

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// processGlobals lists the package-level variables of the module that code
// other than an init function changes, with why each is state of the whole
// process rather than a value passed along. What a process offers the
// library code that user code calls (displays, comms, the launcher of
// cells' launches, the link to the process's own launcher) is not here: it
// is the process's host (internal/host), installed once by the process's
// entry point. A variable that is not listed fails
// TestLayoutProcessStateLivesInTheHost; so does one listed that nothing
// changes any more.
var processGlobals = map[string]string{
	"internal/host.installed": "the process's host itself: set once by Install, lent by ForTest in tests",

	// What the Go runtime, the C loader or a device driver keeps per
	// process, mirrored once.
	"cuda/discover.initOnce":                     "NVML is initialised once per process (nvmlInit)",
	"cuda/discover.initErr":                      "the outcome of that one initialisation",
	"cuda/internal/device.loadOnce":              "the CUDA libraries are loaded once per process",
	"cuda/internal/device.loaded":                "what that one load found",
	"cuda/internal/device.devices":               "a CUDA device's primary context is the process's: one Device per ordinal",
	"cuda/internal/device.tf32":                  "TF32 matrix products are a process-wide mode (cuda.SetAllowTF32, GOACCEL_ALLOW_TF32), as torch.backends.cuda.matmul.allow_tf32",
	"cuda/internal/lib.cache":                    "a dlopen'ed library is the process's: opened once, shared",
	"cuda/nccl.libOnce":                          "libnccl is loaded once per process",
	"cuda/nccl.lib":                              "that one library",
	"cuda/nccl.libErr":                           "the outcome of that one load",
	"tensors/backend/cpu/internal/parallel.pool": "the CPU kernels' worker goroutines: one set per process, as OpenMP's, sized to the machine",
	"tensors/backend/cpu/internal/gemm.threads":  "how many goroutines one GEMM may use, a process-wide knob as torch.set_num_threads (tests vary it)",
	"tensors/backend/cpu.attnPools":              "scratch buffers of attention, pooled by element size (a cache)",

	// Registries that devices and backends fill by registering themselves
	// (database/sql.Register's pattern), and what they opened.
	"dist.backends":               "collective backends register by name (cuda/nccl registers NCCL from its init)",
	"tensors/backend.openers":     "devices register by type (cuda, sim from their init functions)",
	"tensors/backend.counts":      "each registered device type's count",
	"tensors/backend.opened":      "a device is opened once per process and shared by every tensor on it",
	"transformers.registry":       "model families register their model_type from their init functions (transformers/bert, …), as AutoConfig's mapping lists them",
	"tensors/backend/sim.devices": "the simulated devices, opened once per process like real ones",

	// The garbage collector is the process's: its pacing for device memory is too.
	"tensors/backend.due":                   "a device's memory pacer is over its budget: the next allocation collects (the Go collector is process-wide)",
	"tensors/backend.duePacer":              "which pacer that is",
	"tensors/backend.pacers":                "every device's pacer, so the end of a cell and an idle session (CollectDropped, Idle) reach all of them",
	"tensors/backend.lastForced":            "when the last forced collection ended, so that collections are spaced",
	"tensors/backend.collections":           "collections seen, counted by a finalizer tick",
	"tensors/backend/sim.collectEachKernel": "the strict simulated device's test mode: a collection after every kernel (CollectEachKernel, tests only)",
	"tensors/backend/sim.collected":         "the call sites that mode already collected at",

	// Modes of the whole process, as PyTorch's (Go has no goroutine-local state).
	"tensors.noGradDepth":       "tensors.NoGrad, torch.no_grad's counterpart: process-wide, documented so",
	"tensors.autocastDT":        "tensors.Autocast, torch.autocast's counterpart: process-wide like NoGrad",
	"internal/profiling.active": "the profile in progress (accelerate.Profile, torch.profiler's counterpart): tensors' ops, dist's collectives and data's loaders record into it without a context to carry it, process-wide like NoGrad",

	// What one process runs at a time, by its nature.
	"accelerate.groupComm":                  "the process group: one per process, shared by every Accelerator in it (Accelerate's PartialState), joined by the first",
	"accelerate.groupUsers":                 "the Accelerators sharing it; the last to end leaves the group",
	"notebook_launcher.siteCalls":           "calls of each Launch call site in this process, so that a re-executed worker finds the call that started it",
	"notebook_launcher/workers.running":     "the launches this process runs, for StopAll (a compiled program's Stop, its signals)",
	"notebook_launcher/job.exitOnInterrupt": "a worker's SIGINT/SIGTERM handler is installed once",
	"kernel/internal/launch.running":        "only one launch runs at a time in an executor; a second is refused with the first's name",
	"kernel/internal/launch.checked":        "worker programs that compiled (a cache: a relaunch of unchanged code skips the check)",
	"widgets.cellAreas":                     "the callback output area of the request that runs now, kept with the comm manager it belongs to (checked on each use)",
}

// hostInstallers are the packages whose code calls host.Install: the
// processes' entry points (the executor's main, the worker harness that
// both kinds of launched workers run).
var hostInstallers = []string{"kernel/process", "notebook_launcher/job"}

// mutators are the methods that change a sync or sync/atomic value (and a
// sync.Once's Do, which runs its function once per process).
var mutators = map[string]bool{
	"Store": true, "Swap": true, "CompareAndSwap": true, "Add": true, "And": true, "Or": true,
	"LoadOrStore": true, "Delete": true, "LoadAndDelete": true, "Clear": true, "Do": true,
}

// goFile is one parsed file of the module.
type goFile struct {
	dir  string // the package's folder, relative to the module
	name string
	test bool
	f    *ast.File
}

// moduleFiles parses every Go file of the module outside third_party and
// testdata, except generated ones.
var moduleFiles = sync.OnceValues(func() ([]goFile, error) {
	var files []goFile
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != ".." && (n == "third_party" || n == "testdata" || n == "node_modules" || strings.HasPrefix(n, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		rel, _ := filepath.Rel("..", path)
		files = append(files, goFile{dir: filepath.ToSlash(filepath.Dir(rel)), name: filepath.Base(rel), test: strings.HasSuffix(path, "_test.go"), f: f})
		return nil
	})
	return files, err
})

// change is one place where code changes a package-level variable.
type change struct {
	where string // "dir/file.go: func F"
	how   string // "assigns", "Store", …
}

// TestLayoutProcessStateLivesInTheHost finds every package-level variable
// that code other than an init function changes (assigns, increments,
// deletes from, stores into, or runs once), and every assignment to
// another package's variable. What a process offers library code belongs
// to its host (internal/host); anything else must be listed in
// processGlobals with the reason it is process-wide. It logs the ones that
// remain.
func TestLayoutProcessStateLivesInTheHost(t *testing.T) {
	files, err := moduleFiles()
	if err != nil {
		t.Fatal(err)
	}
	byDir := map[string][]goFile{}
	for _, f := range files {
		if !f.test {
			byDir[f.dir] = append(byDir[f.dir], f)
		}
	}
	found := map[string][]change{}
	for dir, pkg := range byDir {
		for key, cs := range packageGlobalChanges(dir, pkg, t) {
			found[key] = append(found[key], cs...)
		}
	}
	if len(found) < 10 {
		t.Fatalf("found only %d changed package-level variables; the scan is broken", len(found))
	}
	keys := make([]string, 0, len(found))
	for k := range found {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		reason, ok := processGlobals[k]
		if !ok {
			t.Errorf("%s is process-global state, changed by %s: pass it as a value, make it a service of the process's host (internal/host), "+
				"or list it in processGlobals (tests/globals_test.go) with why it must be process-wide", k, describe(found[k]))
			continue
		}
		t.Logf("%s (%s): %s", k, describe(found[k]), reason)
	}
	for k := range processGlobals {
		if _, ok := found[k]; !ok {
			t.Errorf("processGlobals lists %s, which nothing changes any more: take it off the list", k)
		}
	}
}

// TestLayoutOnlyEntryPointsInstallTheHost checks that the process's host is
// installed by the entry points alone, and lent only by tests.
func TestLayoutOnlyEntryPointsInstallTheHost(t *testing.T) {
	files, err := moduleFiles()
	if err != nil {
		t.Fatal(err)
	}
	const hostPath = "github.com/goaccel/goaccel/internal/host"
	installs := 0
	for _, gf := range files {
		name := importName(gf.f, hostPath)
		if name == "" {
			continue
		}
		ast.Inspect(gf.f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != name || x.Obj != nil {
				return true
			}
			switch sel.Sel.Name {
			case "Install":
				installs++
				if gf.test || !slices.Contains(hostInstallers, gf.dir) {
					t.Errorf("%s/%s calls host.Install: only the processes' entry points (%s) install the host; a test lends one with host.ForTest", gf.dir, gf.name, strings.Join(hostInstallers, ", "))
				}
			case "ForTest":
				if !gf.test {
					t.Errorf("%s/%s calls host.ForTest outside a test", gf.dir, gf.name)
				}
			}
			return true
		})
	}
	if installs < len(hostInstallers) {
		t.Fatalf("found %d calls of host.Install; the entry points (%s) each have one", installs, strings.Join(hostInstallers, ", "))
	}
}

// describe lists where and how a variable is changed.
func describe(cs []change) string {
	seen := map[string]bool{}
	var out []string
	for _, c := range cs {
		s := c.where + " " + c.how
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return strings.Join(out, "; ")
}

// importName returns the name under which f imports path ("" when it
// does not).
func importName(f *ast.File, path string) string {
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if p != path {
			continue
		}
		if im.Name != nil {
			return im.Name.Name
		}
		return p[strings.LastIndex(p, "/")+1:]
	}
	return ""
}

// packageGlobalChanges returns, by "dir.name", where the package in dir
// changes its package-level variables outside init functions; an
// assignment to another package's variable is reported as an error.
func packageGlobalChanges(dir string, files []goFile, t *testing.T) map[string][]change {
	vars := map[string]*ast.ValueSpec{}
	for _, gf := range files {
		for _, d := range gf.f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for _, n := range vs.Names {
					if n.Name != "_" {
						vars[n.Name] = vs
					}
				}
			}
		}
	}
	found := map[string][]change{}
	for _, gf := range files {
		imports := map[string]bool{}
		for _, im := range gf.f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if im.Name != nil {
				imports[im.Name.Name] = true
			} else {
				imports[p[strings.LastIndex(p, "/")+1:]] = true
			}
		}
		// isImport reports whether id names an imported package (not a
		// variable of the package or of the function).
		isImport := func(id *ast.Ident) bool { return id.Obj == nil && vars[id.Name] == nil && imports[id.Name] }
		for _, d := range gf.f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv == nil && fd.Name.Name == "init" {
				continue
			}
			where := fmt.Sprintf("%s/%s: func %s", dir, gf.name, fd.Name.Name)
			if fd.Recv != nil {
				where = fmt.Sprintf("%s/%s: method %s", dir, gf.name, fd.Name.Name)
			}
			// root returns the package-level variable e is part of (v,
			// v.f, v[i], *v), or "", and foreign when e is part of
			// another package's variable (pkg.V).
			root := func(e ast.Expr) (v, foreign string) {
				for {
					switch x := e.(type) {
					case *ast.Ident:
						if x.Obj != nil { // declared in this file: a package-level var only if it is that declaration
							if vs, ok := x.Obj.Decl.(*ast.ValueSpec); ok && vars[x.Name] == vs {
								return x.Name, ""
							}
							return "", ""
						}
						if vars[x.Name] != nil { // declared in another file of the package
							return x.Name, ""
						}
						return "", ""
					case *ast.SelectorExpr:
						if id, ok := x.X.(*ast.Ident); ok && isImport(id) {
							return "", id.Name + "." + x.Sel.Name
						}
						e = x.X
					case *ast.IndexExpr:
						e = x.X
					case *ast.StarExpr:
						e = x.X
					case *ast.ParenExpr:
						e = x.X
					default:
						return "", ""
					}
				}
			}
			note := func(e ast.Expr, how string) {
				v, foreign := root(e)
				if foreign != "" {
					t.Errorf("%s changes %s, another package's variable (%s): call a function of that package, or pass the value", where, foreign, how)
				}
				if v != "" {
					found[dir+"."+v] = append(found[dir+"."+v], change{where, how})
				}
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.AssignStmt:
					if x.Tok != token.DEFINE {
						for _, l := range x.Lhs {
							note(l, "assigns")
						}
					}
				case *ast.IncDecStmt:
					note(x.X, "assigns")
				case *ast.CallExpr:
					if id, ok := x.Fun.(*ast.Ident); ok && (id.Name == "delete" || id.Name == "clear") && id.Obj == nil && len(x.Args) > 0 {
						note(x.Args[0], id.Name)
					}
					// A mutating method of a value; not a package's
					// function of the same name (atomic.Add…, sync's).
					if sel, ok := x.Fun.(*ast.SelectorExpr); ok && mutators[sel.Sel.Name] {
						if id, ok := sel.X.(*ast.Ident); !ok || !isImport(id) {
							note(sel.X, sel.Sel.Name)
						}
					}
				}
				return true
			})
		}
	}
	return found
}
