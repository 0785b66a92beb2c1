package nn

import (
	"slices"
	"testing"

	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/tensors/backend/sim"
)

// TestActivationCheckpointingHalvesPeakActivationMemory trains one step of a 6-block GPT on a
// simulated device (whose live bytes are counted exactly), with and without recomputing the
// blocks' activations in the backward pass: the peak memory above the parameters and their
// gradients must drop by at least half, and every gradient must be the same to the bit.
func TestActivationCheckpointingHalvesPeakActivationMemory(t *testing.T) {
	cfg := GPTConfig{VocabSize: 64, BlockSize: 64, Layers: 6, Heads: 4, Embed: 64, Dropout: 0.1, Bias: true}
	type result struct {
		peak  int64
		grads [][]float32
	}
	run := func(index int, checkpoint bool) result {
		dev := tensors.Device{Type: "sim", Index: index}
		tensors.ManualSeed(1)
		m := NewGPT(cfg)
		MoveTo(m, dev)
		m.SetGradientCheckpointing(checkpoint)
		g := tensors.NewGenerator(2)
		idx := g.RandInt(0, int64(cfg.VocabSize), 8, cfg.BlockSize).To(dev)
		tgt := g.RandInt(0, int64(cfg.VocabSize), 8*cfg.BlockSize).To(dev)
		d := sim.Lookup("sim", index)
		paramBytes := int64(0)
		for _, p := range m.Parameters() {
			paramBytes += int64(4 * p.Numel())
		}
		before := d.Stats().LiveBytes
		d.ResetPeak()
		tensors.ManualSeed(3) // dropout's masks
		logits := m.Forward(idx)
		loss := tensors.CrossEntropy(logits.Reshape(-1, cfg.VocabSize), tgt)
		loss.Backward()
		// Above what lived before the step (parameters, the batch) and the gradients it made.
		peak := d.Stats().MaxLiveBytes - before - paramBytes
		var grads [][]float32
		for _, p := range m.Parameters() {
			grads = append(grads, p.Grad().Float32s())
		}
		return result{peak, grads}
	}
	plain := run(0, false)
	ckpt := run(1, true)
	t.Logf("peak activation memory of a 6-block step: %d bytes kept, %d recomputed (ratio %.3f)", plain.peak, ckpt.peak, float64(ckpt.peak)/float64(plain.peak))
	if ckpt.peak*2 > plain.peak {
		t.Errorf("checkpointing left %d bytes of %d at the peak; want at most half", ckpt.peak, plain.peak)
	}
	for i := range plain.grads {
		if !slices.Equal(plain.grads[i], ckpt.grads[i]) {
			t.Fatalf("gradient %d differs with checkpointing", i)
		}
	}
}
