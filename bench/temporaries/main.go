package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/goaccel/goaccel/cuda" // the GPU device, for -device cuda
	"github.com/goaccel/goaccel/internal/cputime"
	"github.com/goaccel/goaccel/tensors"
)

type workload struct {
	name     string
	plain    func()
	released func()
}

func main() {
	seconds := flag.Float64("time", 2, "seconds of timing windows per workload")
	rssIters := flag.Int("rss", 0, "run this many iterations of the add and print the peak resident memory")
	device := flag.String("device", "cpu", "cpu or cuda")
	only := flag.String("run", "", "comma-separated workloads to run (default all)")
	flag.Parse()
	dev := tensors.CPU
	if *device == "cuda" {
		dev = tensors.CUDA(0)
	}
	g := tensors.NewGenerator(0)
	x, y := g.Randn(1024, 1024).To(dev), g.Randn(1024, 1024).To(dev)
	a, w := g.Randn(256, 1024).To(dev), g.Randn(1024, 1024).MulScalar(0.03).To(dev)
	sync := func() {
		if dev != tensors.CPU {
			must(cuda.Synchronize(0)) // wait for the device: PyTorch's side synchronises too
		}
	}
	if *rssIters > 0 {
		start := status("VmRSS")
		if dev != tensors.CPU {
			must(cuda.ResetPeakMemoryStats(0))
		}
		devStart := deviceMiB(cuda.MemoryAllocated, dev)
		for range *rssIters {
			_ = x.Add(y).At(0, 0)
		}
		sync()
		fmt.Printf("goaccel rss iterations=%d rss_start_mib=%.1f peak_rss_mib=%.1f", *rssIters, start, status("VmHWM"))
		if dev != tensors.CPU {
			fmt.Printf(" device_start_mib=%.1f device_peak_mib=%.1f", devStart, deviceMiB(cuda.MaxMemoryAllocated, dev))
		}
		fmt.Println()
		return
	}
	// A result nobody reads is never computed (a deferred elementwise result, tensors/doc.go),
	// so each line reads one element of its result, as PyTorch's side does with .item().
	work := []workload{
		{"Add", func() { _ = x.Add(y).At(0, 0) }, func() {
			z := x.Add(y)
			_ = z.At(0, 0)
			z.Release()
		}},
		{"Chain", func() { _ = x.Add(y).MulScalar(0.5).At(0, 0) }, func() {
			s := x.Add(y)
			z := s.MulScalar(0.5)
			_ = z.At(0, 0)
			z.Release()
			s.Release()
		}},
		{"MSE", func() { _ = x.Sub(y).Pow(2).Mean().Item() }, func() {
			d := x.Sub(y)
			p := d.Pow(2)
			m := p.Mean()
			_ = m.Item()
			m.Release()
			d.Release()
			p.Release()
		}},
		{"SumDim", func() { _ = x.SumDims(false, 1).At(0) }, func() {
			s := x.SumDims(false, 1)
			_ = s.At(0)
			s.Release()
		}},
		{"MatMul", func() { _ = a.MatMul(w).ReLU().At(0, 0) }, func() {
			p := a.MatMul(w)
			r := p.ReLU()
			_ = r.At(0, 0)
			r.Release()
			p.Release()
		}},
	}
	for _, wl := range work {
		if *only != "" && !strings.Contains(","+*only+",", ","+strings.ToLower(wl.name)+",") {
			continue
		}
		for _, v := range []struct {
			prefix string
			fn     func()
		}{{"Plain", wl.plain}, {"Released", wl.released}} {
			wall, cpu := timeit(v.fn, sync, *seconds)
			fmt.Printf("%s%s-%s-procs%d\t%.0f ns/op\t%.1f cpu-us/op\n", v.prefix, wl.name, *device, runtime.GOMAXPROCS(0), wall*1e9, cpu*1e6)
		}
	}
}

// timeit warms fn up for a second, then returns the best wall and the best CPU seconds per call
// over five windows of seconds/5 each (the minimum is the steadiest figure on a shared
// machine); wait is called at the end of each window (a GPU's queue).
func timeit(fn, wait func(), seconds float64) (wall, cpu float64) {
	for t0 := time.Now(); time.Since(t0) < time.Second; {
		fn()
	}
	wait()
	wall, cpu = 1e9, 1e9
	for range 5 {
		n, t0, c0 := 0, time.Now(), cputime.Process()
		for time.Since(t0).Seconds() < seconds/5 || n < 2 {
			fn()
			n++
		}
		wait()
		wall = min(wall, time.Since(t0).Seconds()/float64(n))
		cpu = min(cpu, (cputime.Process()-c0).Seconds()/float64(n))
	}
	return wall, cpu
}

// deviceMiB returns what counter says of GPU 0 in MiB (0 on the CPU).
func deviceMiB(counter func(int) (int64, error), dev tensors.Device) float64 {
	if dev == tensors.CPU {
		return 0
	}
	n, err := counter(0)
	must(err)
	return float64(n) / (1 << 20)
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

// status returns a field of /proc/self/status in MiB.
func status(key string) float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		log.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && k == key {
			kb, err := strconv.ParseFloat(strings.Fields(v)[0], 64)
			if err != nil {
				log.Fatal(err)
			}
			return kb / 1024
		}
	}
	log.Fatalf("no %s in /proc/self/status", key)
	return 0
}
