// Package ratelog keeps a recurring warning from flooding a log: the first
// occurrence is logged at once, later ones at most once per interval, each
// saying how many were left out since the last one logged. A flood of bad
// connections then costs a line every few seconds, not one per connection.
//
//	var lim = ratelog.Limiter{Every: 10 * time.Second}
//	if ok, skipped := lim.Allow(); ok {
//		slog.Warn("refused a connection", "err", err, "similar_not_logged", skipped)
//	}
//
// Files:
//   - ratelog.go: Limiter and Allow.
package ratelog
