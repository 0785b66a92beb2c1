package magics

// sessionMagics are the magics that need more of the session than Env
// (Timer, Resetter, Capturer): %timeit, %reset, %load, %%bash, %%sh,
// %%capture.
func sessionMagics() []Magic {
	return []Magic{
		{Name: "timeit", Usage: "%timeit [-n N] [-r R] STATEMENT", Help: "time Go code: mean ± std. dev. of R runs (default 7) of N loops (default: enough for 0.2 s)", Run: timeitMagic},
		{Name: "timeit", Cell: true, Usage: "%%timeit [-n N] [-r R] [SETUP]", Help: "time the cell's Go code, after SETUP (run once per run, not timed)", Run: timeitMagic},
		{Name: "reset", Usage: "%reset [-f]", Help: "forget every variable, function, type and import (-f: without asking)", Run: resetMagic},
		{Name: "load", Usage: "%load [-r 5-10] FILE", Help: "replace the cell with FILE's text (or some of its lines), to edit and run", Run: loadMagic},
		{Name: "bash", Cell: true, Usage: "%%bash [--no-raise-error]", Help: "run the cell as a bash script, output streamed; a failing exit status fails the cell", Run: scriptMagic("bash")},
		{Name: "sh", Cell: true, Usage: "%%sh [--no-raise-error]", Help: "run the cell as a sh script, output streamed; a failing exit status fails the cell", Run: scriptMagic("sh")},
		{Name: "go", Usage: "%go get MODULE@VERSION | %go mod use DIR | %go list", Help: "pin a module's version for the cells' imports, import a local module of yours, or list what the session uses", Run: goMagic},
		{Name: "capture", Cell: true, Usage: "%%capture [--no-stdout] [--no-stderr] [--no-display] [VAR]", Help: "run the cell with its output captured; VAR.Stdout, VAR.Stderr, VAR.Outputs, VAR.Show()", Run: captureMagic},
	}
}
