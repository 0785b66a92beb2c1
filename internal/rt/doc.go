// Package rt holds the compiled helpers that rewritten cell code calls
// (cells rewrites clear(x) to __goaccel.Clear(x), and the function passed to
// notebook_launcher.Launch to __goaccel.Named("train", train)), for the
// session and for interpreted workers alike. Interpreted code imports them
// from ImportPath under the name __goaccel; the session adds helpers of its
// own (%timeit's timer, %%capture's binding) beside them.
//
//	i.Use(rt.Symbols()) // then: __goaccel.Clear(m) in interpreted code
//	if nf, ok := fn.(rt.NamedFunc); ok { fn, name = nf.Fn, nf.Name } // in Launch
//
// Files:
//   - rt.go: ImportPath, NamedFunc, Named, Clear, Embed and Symbols.
package rt
