// Package procgroup starts a group of worker processes, relays their output,
// and stops the whole group on the first failure or on cancellation.
//
// It is the plumbing under notebook_launcher.Launch and `goaccel launch`:
// each worker runs in its own process group (so a terminal's Ctrl-C reaches
// only the launcher, which forwards it), dies with the launcher on Linux
// (Pdeathsig), and has its output prefixed with "[rank r] " for r > 0.
//
//	err := procgroup.Run(ctx, procgroup.Spec{
//		Path: "/path/to/bin", NumProcs: 2,
//		Env: func(local int) []string { return []string{fmt.Sprintf("RANK=%d", local)} },
//	})
package procgroup
