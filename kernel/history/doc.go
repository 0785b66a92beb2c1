// Package history keeps the inputs a kernel session executed and answers
// Jupyter history_request queries (tail, range, search with glob patterns).
//
//	h := history.New("session-id")
//	h.Add(1, "x := 1", "")
//	entries := h.Tail(10)
package history
