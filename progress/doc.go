// Package progress draws tqdm-like progress bars: count, percentage, rate,
// elapsed time, time left and a postfix such as the loss.
//
// Where it draws is decided for you: under a notebook cell, an HTML bar
// updated in place (update_display_data, so an executed notebook keeps one
// output per bar); in a terminal, one line rewritten in place; in a log
// (output that is not a terminal), a plain line every ten seconds and one
// at the end. Under data parallelism only the local main process draws
// (LOCAL_RANK, or RANK, 0 or unset), like Accelerate's
// disable=not accelerator.is_local_main_process, without a line of code.
//
// Wrap a data.Loader (anything with Next() bool; its Len() gives the
// total) or a count in one call, and nest bars for epochs × batches:
//
//	epochs := progress.Range(3, "epoch")
//	for epochs.Next() {
//		batches := epochs.Over(trainLoader, "train")
//		for batches.Next() {
//			xb, yb := trainLoader.Batch()
//			…
//			batches.Set("loss", loss.Item())
//		}
//	}
//
// With Options.Widget the bar under a cell is Jupyter widgets instead (a
// label, a widgets.Progress and the counts, as tqdm.notebook draws it),
// updated over their comms; the HTML bar stays the default, since every
// notebook viewer shows it.
//
// A nested bar shows under its parent (in a terminal, after it on the same
// line) and reuses its place from one epoch to the next. Breaking out of a
// loop leaves the bar as it was; Close draws its final state.
//
// Files:
//   - bar.go: Options, Iterator and Bar (New, Range, Over, Next, Add, Set,
//     SetDesc, Close), nested bars included.
//   - format.go: the bar's text as tqdm writes it: counts, percentage,
//     elapsed, time left, rate and postfix, and its HTML form.
//   - output.go: where bars draw (a notebook display, widgets, a terminal
//     line, log lines or nowhere off the local main process) and how often.
//   - term_bsd.go, term_linux.go: the ioctl that reads a terminal's
//     settings on BSD and macOS, and on Linux.
//   - term_other.go: no terminal check elsewhere: plain log lines.
//   - term_unix.go: isTerminal.
//   - tracker.go: Start, Log and Finish: a Bar as an accelerate.Tracker that shows the latest
//     logged values.
//   - widget.go: the bar as Jupyter widgets (Options.Widget).
package progress
