package session

import (
	"time"

	"github.com/goaccel/goaccel/tensors/backend"
)

// droppedPerCell is how much of the tensors' memory cells may drop without
// Release before the end of a cell collects it: what a cell dropped then
// goes back to the device pools for the next cells, instead of piling up to
// the budget the pacer keeps for training loops (64–256 MiB) over many cells.
const droppedPerCell = 16 << 20

// idleRelease is how long the session waits, idle after a cell, before it
// gives back the pools' free buffers and the heap the garbage collector
// keeps to the operating system (backend.Idle): a few collections, once.
const idleRelease = 2 * time.Second

// cellStarted is the start of a cell: the session is no longer idle.
func (s *Session) cellStarted() { s.idle.Stop() }

// cellEnded is the end of a cell: what it dropped is collected when it is
// sizeable, and the rest goes back once the session stays idle.
func (s *Session) cellEnded() {
	backend.CollectDropped(droppedPerCell)
	s.idle.Reset(idleRelease)
}
