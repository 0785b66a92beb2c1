package lib

import "syscall"

// systemOpen is LoadLibrary. (Open refuses before: goaccel's CUDA libraries are Linux's.)
func systemOpen(path string) (uintptr, error) {
	h, err := syscall.LoadLibrary(path)
	return uintptr(h), err
}

// systemSym is GetProcAddress.
func systemSym(handle uintptr, name string) (uintptr, error) {
	return syscall.GetProcAddress(syscall.Handle(handle), name)
}
