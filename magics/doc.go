// Package magics parses the %, %% and ! lines of notebook cells and runs the
// built-in magics: %help, %env, %cd, %time, %%time, %timeit, %%timeit,
// %who, %doc, %reset, %load, %%writefile, %%bash, %%sh, %%capture,
// %accelerate and !shell commands. The session supplies an Env, and for
// %timeit, %reset, %%capture and %accelerate launch/export the Timer,
// Resetter, Asker, Capturer and Launcher it implements; other packages add
// their own magics to a Registry with Register. Segments splits a cell at line
// magics that follow complete Go code, so each part runs in order.
//
//	reg := magics.NewRegistry()
//	calls, goCode := magics.Parse("%env DEBUG=1\nx := 1")
//	for _, c := range calls { out, err := reg.Run(ctx, c, env) }
package magics
