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

// PeerLostError says which rank was lost, on which host, and why. A rank
// whose host stopped answering (a cut link, a machine gone) has a Reason
// starting "its host stopped answering"; one whose process died, "connection
// closed (process exited or was killed)".
type PeerLostError struct {
	Rank   int
	Host   string // the lost rank's hostname and address, when known
	Reason string
}

func (e *PeerLostError) Error() string {
	if e.Host != "" {
		return fmt.Sprintf("rank %d lost (host %s): %s", e.Rank, e.Host, e.Reason)
	}
	return fmt.Sprintf("rank %d lost: %s", e.Rank, e.Reason)
}

// Is makes errors.Is(err, ErrPeerLost) true.
func (e *PeerLostError) Is(target error) bool { return target == ErrPeerLost }
