// Package host is the one place where a process's services meet the
// library code that user code calls. A cell calls display.PNG,
// widgets.NewSlider, plots.NewLive, notebook_launcher.Launch or
// accelerate.New without a context to pass along; that code reaches the
// process's services through Current:
//
//	h := host.Current()
//	if h.Display != nil { h.Display.Send("display_data", content) } // display, widgets, plots
//	m := h.Comms                                                    // widgets
//	if h.Cells != nil { return h.Cells.LaunchCell(ctx, call) }      // notebook_launcher.Launch in a cell
//	h.Worker.SetPhase(workerinfo.PhaseLoading)                      // accelerate, dist, data
//
// A Host is installed once, by the process's entry point, before user code
// runs, and never changes:
//
//   - the kernel's executor (kernel/process): Display and Comms send to
//     the kernel, Cells is the session, which launches workers for cells;
//   - a launched worker, interpreted or compiled (notebook_launcher/job's
//     harness): Display and Comms send frames to the launcher, which
//     relays them to the launching cell;
//   - any other program installs nothing: Current is a plain program's
//     host, whose Worker is the link to a launcher the environment names
//     (goaccel launch, notebook_launcher.Launch) or to none.
//
// Every Host of a process shares one workerinfo.Worker, made from the
// environment the first time it is needed. Tests put a host of their own in
// place with ForTest; tests/globals_test.go checks that no other package
// keeps process-global state a caller sets, and that only the entry points
// call Install.
//
// Files:
//   - host.go: Display, Cells and LaunchCall, Host and InNotebook, Install,
//     Current and ForTest.
package host
