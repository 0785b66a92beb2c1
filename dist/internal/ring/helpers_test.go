package ring

import (
	"errors"

	"github.com/goaccel/goaccel/dist/internal/mesh"
)

func asPeer(err error, pe **mesh.PeerError) bool { return errors.As(err, pe) }
