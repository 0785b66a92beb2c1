// Package history keeps the inputs a kernel session executed and answers
// Jupyter history_request queries (tail, range, search with glob patterns).
//
//	h := history.New("session-id")
//	h.Add(1, "x := 1", "")
//	entries := h.Tail(10)
//	content := history.Tuples(entries, false) // history_reply's "history"
//
// Files:
//   - history.go: Entry and Store (New, Add, SetOutput, Tail, Range,
//     Search with IPython's glob patterns) and Tuples, the reply's shape.
package history
