package bert_test

import (
	"io"
	"testing"

	_ "github.com/goaccel/goaccel/cuda" // the GPU (or the emulated one of make test-cuda-emulated)
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	_ "github.com/goaccel/goaccel/tensors/backend/sim" // the strict simulated devices
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/testenv"
)

// TestTinyBertRunsOnEveryDevice moves the small classifier to the simulated devices (which fail
// on any host access to their memory; "simfused" runs the fused kernels, "sim" their composed
// fallbacks) and to a GPU when there is one, and compares the logits, the loss and the
// gradients with the CPU's.
func TestTinyBertRunsOnEveryDevice(t *testing.T) {
	fx, _ := testenv.Fixture(t, "tiny.safetensors")
	devices := []tensors.Device{{Type: "sim"}, {Type: "simfused"}}
	if tensors.DeviceCount("cuda") > 0 {
		devices = append(devices, tensors.CUDA(0))
	}
	run := func(d tensors.Device) (transformers.Output, transformers.Model) {
		m, _, err := transformers.FromPretrained(testenv.TestData(t, "tiny-bert"), transformers.Options{Task: transformers.SequenceClassification, Log: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		nn.MoveTo(m, d)
		in := transformers.Inputs{InputIDs: fx["tiny.ids"].To(d), AttentionMask: fx["tiny.mask"].To(d), TokenTypeIDs: fx["tiny.types"].To(d), Labels: fx["tiny.labels"].To(d)}
		out, err := m.Run(in)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		out.Loss.Backward()
		return out, m
	}
	want, wm := run(tensors.CPU)
	for _, d := range devices {
		got, gm := run(d)
		testenv.Close(t, d.String()+" logits", got.Logits.To(tensors.CPU), want.Logits, 1e-5)
		testenv.Close(t, d.String()+" loss", got.Loss.To(tensors.CPU), want.Loss, 1e-5)
		wp, gp := wm.NamedParameters(), gm.NamedParameters()
		for i := range wp {
			testenv.CloseScaled(t, d.String()+" gradient of "+wp[i].Name, gp[i].Param.Grad().To(tensors.CPU), wp[i].Param.Grad(), 1e-4)
		}
	}
}
