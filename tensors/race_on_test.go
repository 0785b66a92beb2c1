//go:build race

package tensors

// raceEnabled is set under -race, where allocation counts mean nothing: the
// race runtime drops a quarter of sync.Pool's Puts at random (so pooled
// scratch is allocated again) and instrumentation changes what escapes.
const raceEnabled = true
