//go:build go1.24

package interp

// goaccel: the code of an evaluation is garbage once nothing refers to it.
// An embedder that compiles each evaluation under a file name of its own (a
// notebook's cells) says when a file is finished (CloseFile); once none of
// the code compiled under it is reachable any more, ReleaseFiles lets go of
// what the interpreter keeps per file: its imports and its positions.

import (
	"go/token"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"weak"
)

// rootList is the compiled roots, held weakly.
type rootList []weak.Pointer[node]

// fileUse counts, per file (by base name, as imports are scoped), the
// compiled roots the garbage collector has not found unreachable yet.
type fileUse struct {
	mu     sync.Mutex
	live   map[string]int  // file → roots still reachable
	closed map[string]bool // files no more code will be compiled under
}

func newFileUse() *fileUse {
	return &fileUse{live: map[string]int{}, closed: map[string]bool{}}
}

// add counts root as code of file until the garbage collector finds it
// unreachable.
func (u *fileUse) add(root *node, file string) {
	u.mu.Lock()
	u.live[file]++
	u.mu.Unlock()
	runtime.AddCleanup(root, u.gone, file)
}

func (u *fileUse) gone(file string) {
	u.mu.Lock()
	if u.live[file]--; u.live[file] <= 0 {
		delete(u.live, file)
	}
	u.mu.Unlock()
}

// unused returns the closed files none of whose code is reachable, and
// forgets them.
func (u *fileUse) unused() map[string]bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	var out map[string]bool
	for f := range u.closed {
		if u.live[f] == 0 {
			if out == nil {
				out = map[string]bool{}
			}
			out[f] = true
			delete(u.closed, f)
		}
	}
	return out
}

// addRoot remembers a compiled root: weakly for the debugger's breakpoint
// targets, so that the code of an evaluation nothing refers to any more (a
// statement that ran, a function defined again) is garbage; and as code of
// its file, for ReleaseFiles. The dead entries of roots go when it would
// grow.
func (interp *Interpreter) addRoot(root *node) {
	if len(interp.roots) == cap(interp.roots) {
		live := interp.roots[:0]
		for _, r := range interp.roots {
			if r.Value() != nil {
				live = append(live, r)
			}
		}
		clear(interp.roots[len(live):])
		interp.roots = live
	}
	interp.roots = append(interp.roots, weak.Make(root))
	if f := interp.fset.File(root.pos); f != nil {
		interp.files.add(root, filepath.Base(f.Name()))
	}
}

// liveRoots returns the compiled roots still reachable, in compilation order.
func (interp *Interpreter) liveRoots() []*node {
	var out []*node
	for _, r := range interp.roots {
		if n := r.Value(); n != nil {
			out = append(out, n)
		}
	}
	return out
}

// CloseFile says that no more code will be compiled under the file name
// (files are told apart by their base name, as imports are): once none of
// the code compiled under it is reachable, ReleaseFiles lets it go.
func (interp *Interpreter) CloseFile(name string) {
	u := interp.files
	u.mu.Lock()
	u.closed[filepath.Base(name)] = true
	u.mu.Unlock()
}

// ReleaseFiles forgets the imports and the positions (in FileSet) of the
// closed files none of whose code is reachable any more, and returns their
// base names. Call it between evaluations: it changes the package scopes
// that compilation reads.
func (interp *Interpreter) ReleaseFiles() []string {
	unused := interp.files.unused()
	if len(unused) == 0 {
		return nil
	}
	interp.mutex.Lock()
	for _, sc := range interp.scopes {
		for k, sym := range sc.sym {
			// A file's imports are named "pkg/file" (gta).
			if i := strings.LastIndexByte(k, '/'); i >= 0 && sym.kind == pkgSym && unused[k[i+1:]] {
				delete(sc.sym, k)
			}
		}
	}
	interp.mutex.Unlock()
	var files []*token.File
	interp.fset.Iterate(func(f *token.File) bool {
		if unused[filepath.Base(f.Name())] {
			files = append(files, f)
		}
		return true
	})
	for _, f := range files {
		interp.fset.RemoveFile(f)
	}
	names := make([]string, 0, len(unused))
	for f := range unused {
		names = append(names, f)
	}
	return names
}
