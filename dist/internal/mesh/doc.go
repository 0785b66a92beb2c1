// Package mesh connects every rank of a group to every other over TCP, each
// connection authenticated with the job's token, and moves framed messages
// between them. A reader goroutine per peer queues incoming frames, so sends
// never deadlock against each other, and it notices at once when a peer's
// process dies (the kernel closes its sockets): the group then fails with an
// error naming that rank, and the other ranks are told which rank was lost.
//
//	m, err := mesh.Establish(ctx, rank, size, token, ln, addrs, hosts)
//	err = m.Send(ctx, (rank+1)%size, msg)
//	b, err := m.Recv(ctx, (rank+size-1)%size)
//
// Files:
//   - establish.go: Establish: every rank listens, accepts the higher ranks
//     and dials the lower ones, refusing wrong tokens and ranks.
//   - io.go: Send, Recv and RecvInto, framed messages to and from a peer.
//   - mesh.go: SegmentSize, PeerError, Mesh (Rank, Size, Lost, Ended, Err,
//     Close), ErrClosed, Release and the reader goroutine of each peer.
//   - sockopt_linux.go: TCP_USER_TIMEOUT, so a silent host fails the
//     connection.
//   - sockopt_other.go: no user timeout elsewhere.
package mesh
