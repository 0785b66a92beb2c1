//go:build !race

package tensors

const raceEnabled = false
