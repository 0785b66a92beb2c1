// Package defaults decides which devices every program has: importing it links them in, and
// each registers itself with tensors/backend as it initialises. Today that is the CPU
// (tensors/backend/cpu). Package tensors imports it, so a program gets the CPU without naming a
// device; other devices come with their own packages (github.com/goaccel/goaccel/cuda).
//
// It is the one place that says what links in by default, as GoMLX's backends/default does: a
// device every build should carry is a blank import here, never an import of package tensors.
package defaults

import _ "github.com/goaccel/goaccel/tensors/backend/cpu" // registers "cpu"
