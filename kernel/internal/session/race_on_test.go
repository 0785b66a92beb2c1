//go:build race

package session

// raceEnabled is set under -race, whose instrumentation says nothing of the
// memory a session keeps.
const raceEnabled = true
