// Package store is the rendezvous key-value store of a process group (the
// equivalent of torch's TCPStore): set, get (waiting for the key), add, wait
// and check over TCP, every connection authenticated with the job's token, and
// liveness tracking — a rank that registered and then disconnects without
// saying goodbye is recorded as lost, which wakes every waiter with an error
// naming it.
//
//	srv, err := store.Serve("127.0.0.1:0", token)
//	c, err := store.Dial(ctx, srv.Addr(), token, rank)
//	err = c.Set(ctx, "addr/0", []byte(myAddr))
//	v, err := c.Get(ctx, "addr/1") // waits until rank 1 sets it
//
// Files:
//   - client.go: ErrTimeout, LostError and Client (Dial, Set, Delete, Add,
//     Check, Get, Wait, Register, Close, LocalIP).
//   - server.go: Server (Serve, Addr, Close): the keys, the waiters and the
//     registered ranks' liveness.
//   - wire.go: the requests and replies on the wire, and the length-prefixed
//     keys and values.
package store
