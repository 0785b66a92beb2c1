package progress

import "sort"

// Start, Log and Finish make a Bar an accelerate.Tracker: given to the Accelerator's
// AddTracker before InitTrackers, the bar shows the latest value of every metric acc.Log
// records after its rate, as Set does (an epochs bar that lives through the training is the
// one to add):
//
//	epochs := progress.Range(3, "epoch")
//	acc.AddTracker(epochs)
//	acc.InitTrackers("mnist", nil)
//	for epochs.Next() { … acc.Log(map[string]float64{"loss": l}, step) … }
//
// Start does nothing: a bar has no run to begin.
func (b *Bar) Start(project string, config map[string]any) error { return nil }

// Log shows values after the bar's rate, in the order of their names, at its next redraw.
func (b *Bar) Log(values map[string]float64, step int) error {
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b.Set(k, values[k])
	}
	return nil
}

// Finish does nothing: the bar stays as its loop leaves it (Close draws its final state).
func (b *Bar) Finish() error { return nil }
