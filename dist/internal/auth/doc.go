// Package auth is the challenge-response handshake that guards the rendezvous
// store and the peer connections: the accepting side sends a random nonce, the
// connecting side answers with HMAC-SHA256(token, purpose || nonce || rank), so
// a connection that does not know the job's token is refused before it can
// read or write anything.
//
//	rank, err := auth.Accept(conn, token, "mesh") // the listening side learns the peer's rank
//	err := auth.Connect(conn, token, "mesh", myRank)
//
// Files:
//   - auth.go: ErrBadToken, Accept and Connect, each within a handshake
//     timeout.
package auth
