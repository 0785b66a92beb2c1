// Package magics parses the %, %% and ! lines of notebook cells and runs the
// built-in magics: %help, %env, %cd, %time, %%time, %timeit, %%timeit,
// %who, %doc, %reset, %load, %%writefile, %%bash, %%sh, %%capture,
// %accelerate (launch, export, config, env), %go (get, mod use, list) and
// !shell commands. The session supplies an Env, and for %timeit, %reset,
// %%capture, %accelerate launch/export and %go the Timer, Resetter, Asker,
// Capturer, Launcher and Modules it implements; other packages add their own
// magics to a Registry with Register. Segments splits a cell at line magics
// that follow complete Go code, so each part runs in order.
//
//	reg := magics.NewRegistry()
//	calls, goCode := magics.Parse("%env DEBUG=1\nx := 1")
//	for _, c := range calls { out, err := reg.Run(ctx, c, env) }
//
// Files:
//   - accelerate.go: Launcher and %accelerate: launch and export (the
//     flags of notebook_launcher/cli), config and env.
//   - basics.go: the table of basic magics (%help, %env, %cd, %time, %%time,
//     %who, %doc, %accelerate, %%writefile) and the simple ones' code.
//   - capture.go: %%capture.
//   - captured.go: CapturedIO (NewCapturedIO, Show, String), what
//     `%%capture VAR` binds.
//   - gomod.go: Modules and %go get, %go mod use and %go list.
//   - load.go: %load, the cell replaced by a file's lines.
//   - parse.go: Call, Parse, HelpQuery (SYMBOL?) and Segments.
//   - registry.go: Env, Output, Magic and Registry (NewRegistry, Register,
//     Run, Names).
//   - reset.go: %reset.
//   - script.go: %%bash, %%sh and !commands, streamed, killed with their
//     process group on an interrupt.
//   - session.go: Timer, TimedCode, Resetter, Asker, Capturer and
//     CaptureOptions, what magics need beyond Env.
//   - table.go: the table of the other magics (%timeit, %%timeit, %reset,
//     %load, %%bash, %%sh, %go, %%capture).
//   - timeit.go: %timeit and %%timeit, with IPython's loop counts and
//     report.
package magics
