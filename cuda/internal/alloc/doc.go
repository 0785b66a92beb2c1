// Package alloc is the caching allocator of device memory: freed blocks are kept by size class
// and handed out again, so a training step does not call cuMemAlloc and cuMemFree for every
// temporary (each is slow and synchronises the device). All work of a device runs on one stream,
// so a block freed there can be reused by the next operation in stream order.
//
//	c := alloc.New(raw)            // raw: the driver's MemAlloc and MemFree
//	p, size, err := c.Alloc(bytes) // size: the class it was served with
//	c.Free(p, size)                // kept for the next Alloc of that class
//
// Files:
//   - alloc.go: Raw, ErrOutOfMemory, Stats, Cache (New, Alloc, Free, Trim, Stats,
//     ResetPeak) and Class.
package alloc
