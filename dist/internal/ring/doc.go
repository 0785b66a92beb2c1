// Package ring implements the collectives over a mesh of TCP connections with
// bandwidth-optimal ring algorithms: all-reduce is a reduce-scatter followed
// by an all-gather, each of size-1 steps in which every rank sends one chunk
// to its right neighbour while it receives and reduces one from its left;
// chunks travel as a pipeline of segments so sending, receiving and reducing
// overlap. Every rank ends with bit-identical results because each chunk is
// reduced once and then copied.
//
//	g := ring.Full(m) // every rank of the mesh; Sub(m, members) for a subset
//	err := ring.AllReduce(ctx, g, buf, reduce.Float32, reduce.Sum)
//
// Files:
//   - ring.go: Ring (Full, Sub), AllReduce, ReduceScatter, AllGather,
//     Broadcast and Barrier.
package ring
