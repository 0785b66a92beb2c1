package dist

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// benchPeer is the worker side of BenchmarkAllReduce: it repeats whatever
// the benchmarking rank 0 announces (count and length) until told to stop.
func benchPeer(ctx context.Context, g *Group) error {
	for {
		ctl := []int64{0, 0}
		if err := g.BroadcastInt64(ctx, ctl, 0); err != nil {
			return err
		}
		if ctl[0] < 0 {
			return nil
		}
		buf := make([]float32, ctl[1])
		for range ctl[0] {
			if err := g.AllReduce(ctx, buf, Sum); err != nil {
				return err
			}
		}
	}
}

// BenchmarkAllReduce measures all-reduce (Sum) of float32 buffers between
// this process (rank 0) and a second worker process on the same host, per
// transport. MB/s is the buffer size over the time per all-reduce (torch's
// algbw), so it compares directly with bench/allreduce_gloo.py.
func BenchmarkAllReduce(b *testing.B) {
	for _, transport := range []string{"shm", "tcp"} {
		b.Run(transport, func(b *testing.B) {
			g := benchGroup(b, transport)
			for _, size := range []struct {
				name  string
				bytes int
			}{{"4KB", 4 << 10}, {"256KB", 256 << 10}, {"4MB", 4 << 20}, {"64MB", 64 << 20}} {
				b.Run(size.name, func(b *testing.B) {
					n := size.bytes / 4
					buf := make([]float32, n)
					ctx := context.Background()
					if err := g.BroadcastInt64(ctx, []int64{int64(b.N) + 1, int64(n)}, 0); err != nil {
						b.Fatal(err)
					}
					if err := g.AllReduce(ctx, buf, Sum); err != nil { // warm the pages
						b.Fatal(err)
					}
					b.SetBytes(int64(n * 4))
					b.ResetTimer()
					for range b.N {
						if err := g.AllReduce(ctx, buf, Sum); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			g.BroadcastInt64(context.Background(), []int64{-1, 0}, 0)
		})
	}
}

func benchGroup(b *testing.B, transport string) *Group {
	b.Helper()
	ln := freePortTB(b)
	token := NewToken()
	env := []string{
		"WORLD_SIZE=2", "LOCAL_WORLD_SIZE=2", "MASTER_ADDR=127.0.0.1",
		"MASTER_PORT=" + strconv.Itoa(ln), EnvStoreToken + "=" + token, EnvTransport + "=" + transport,
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), env...), "RANK=1", "LOCAL_RANK=1", envScenario+"=bench-peer")
	cmd.Stderr = os.Stderr // its "joined" line would clutter the benchmark output
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	g, err := Init(context.Background(), Config{
		Rank: 0, WorldSize: 2, LocalRank: 0, LocalWorldSize: 2,
		MasterAddr: "127.0.0.1", MasterPort: ln, Token: token, Transport: transport,
	})
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		b.Fatal(err)
	}
	b.Cleanup(func() {
		g.Close()
		cmd.Wait()
	})
	return g
}
