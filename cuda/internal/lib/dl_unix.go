//go:build !windows

package lib

import "github.com/ebitengine/purego"

// systemOpen opens a library with the system's dlopen (RTLD_NOW|RTLD_GLOBAL), through purego.
func systemOpen(path string) (uintptr, error) {
	return purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
}

// systemSym is dlsym.
func systemSym(handle uintptr, name string) (uintptr, error) { return purego.Dlsym(handle, name) }
