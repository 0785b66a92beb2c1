// Package magics parses the %, %% and ! lines of notebook cells and runs the
// basic magics (%help, %env, %cd, %time, %%time, %who, %doc, %%writefile and
// !shell commands). The session supplies an Env; other packages add their own
// magics (e.g. %accelerate) to a Registry with Register.
//
//	reg := magics.NewRegistry()
//	calls, goCode := magics.Parse("%env DEBUG=1\nx := 1")
//	for _, c := range calls { out, err := reg.Run(ctx, c, env) }
package magics
