package plots

import (
	"math"
	"testing"
)

// BenchmarkLiveRedraw is the cost of one redraw of a live plot of 1,000
// steps of one metric (what the notebook tracker draws during MNIST training).
func BenchmarkLiveRedraw(b *testing.B) {
	for _, metrics := range []int{1, 3} {
		b.Run(map[int]string{1: "1-metric", 3: "3-metrics"}[metrics], func(b *testing.B) {
			live := NewLive("mnist")
			names := []string{"loss", "accuracy", "lr"}[:metrics]
			for step := range 1000 {
				m := map[string]float64{}
				for _, n := range names {
					m[n] = math.Exp(-float64(step)/300) + 0.05*math.Sin(float64(step))
				}
				_ = live.Add(step, m)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := live.Figure().renderPNGFast(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkLiveRedrawFormats(b *testing.B) {
	live := NewLive("mnist")
	for step := range 1000 {
		_ = live.Add(step, map[string]float64{"loss": math.Exp(-float64(step)/300) + 0.05*math.Sin(float64(step))})
	}
	for _, format := range []string{"png", "svg"} {
		b.Run(format, func(b *testing.B) {
			var n int
			for b.Loop() {
				out, err := live.Figure().Render(format)
				if err != nil {
					b.Fatal(err)
				}
				n = len(out)
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
}
