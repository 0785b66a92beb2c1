// Package driver binds the CUDA driver API (libcuda.so.1) at run time: primary contexts, device
// memory, streams, events, modules and kernel launches. Every call returns an error naming the
// call and CUDA's error name; nothing panics.
//
// The driver's current context is per OS thread. Callers make a context current with
// Context.Do, which locks the goroutine to its thread for the duration: the one place that
// handles the rule.
//
//	d, err := driver.Load()
//	dev, err := d.Device(0)
//	ctx, err := d.PrimaryContext(dev)
//	err = ctx.Do(func() error {
//		p, err := d.MemAlloc(1 << 20)
//		…
//	})
//
// Files:
//   - driver.go: Driver (Load, LoadFrom), Error, Device, Context (PrimaryContext, Do, Release)
//     and the calls: memory, copies and memsets, streams, events, modules and Launch.
package driver
