package dist

import (
	"errors"
	"fmt"
)

// ErrPeerLost is matched (errors.Is) by every error caused by another rank
// dying, disconnecting or closing its group; *PeerLostError names the rank.
var ErrPeerLost = errors.New("dist: peer lost")

// ErrClosed is returned by collectives on a group that was closed.
var ErrClosed = errors.New("dist: group is closed")

// PeerLostError says which rank was lost and why.
type PeerLostError struct {
	Rank   int
	Reason string
}

func (e *PeerLostError) Error() string {
	return fmt.Sprintf("rank %d lost: %s", e.Rank, e.Reason)
}

// Is makes errors.Is(err, ErrPeerLost) true.
func (e *PeerLostError) Is(target error) bool { return target == ErrPeerLost }
