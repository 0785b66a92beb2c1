// Package displaysink carries display bundles from the display package to the
// kernel. The executor child process installs a Sink with Set; package display
// publishes through Get. Outside a kernel Get returns nil and display writes
// nothing.
//
//	displaysink.Set(mySink) // in the executor, before running cells
//	if s := displaysink.Get(); s != nil {
//		s.Send("display_data", map[string]any{"data": bundle, "metadata": map[string]any{}, "transient": map[string]any{}})
//	}
//
// Files:
//   - sink.go: Sink, Set and Get, one process-wide sink.
package displaysink
