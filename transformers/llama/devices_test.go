package llama_test

import (
	"slices"
	"testing"

	_ "github.com/goaccel/goaccel/cuda" // the GPU (or the emulated one of make test-cuda-emulated)
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	_ "github.com/goaccel/goaccel/tensors/backend/sim" // the strict simulated devices
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/testenv"
)

// TestDecodersRunOnEveryDevice moves the grouped-query, llama3-scaled, tied Llama and the
// sliding-window Mistral to the simulated devices (which fail on any host access to their
// memory; "simfused" runs the fused kernels, "sim" their composed fallbacks) and to a GPU when
// there is one, and compares the logits, the loss and the gradients with the CPU's, and the
// tokens generated over the KV cache on the device.
func TestDecodersRunOnEveryDevice(t *testing.T) {
	fx, _ := testenv.Fixture(t, "decoders.safetensors")
	devices := []tensors.Device{{Type: "sim"}, {Type: "simfused"}}
	if tensors.DeviceCount("cuda") > 0 {
		devices = append(devices, tensors.CUDA(0))
	}
	for _, dir := range []string{"tiny-llama-scaled", "tiny-mistral"} {
		t.Run(dir, func(t *testing.T) {
			run := func(d tensors.Device) (transformers.Output, transformers.Model, []int64) {
				m := load(t, dir, transformers.CausalLM, 0)
				nn.MoveTo(m, d)
				ids := fx["ids"]
				mask := padMask(ids)
				labels := ids.Int64s()
				for i, v := range mask.Int64s() {
					if v == 0 {
						labels[i] = -100
					}
				}
				out, err := m.Run(transformers.Inputs{InputIDs: ids.To(d), AttentionMask: mask.To(d), Labels: tensors.FromInt64(labels, ids.Shape()...).To(d)})
				if err != nil {
					t.Fatalf("%s: %v", d, err)
				}
				out.Loss.Backward()
				g, err := transformers.Generate(m, transformers.Inputs{InputIDs: fx["prompts"].To(d), AttentionMask: padMask(fx["prompts"]).To(d)},
					transformers.GenerateOptions{MaxNewTokens: 8, IgnoreEOS: true})
				if err != nil {
					t.Fatalf("%s: %v", d, err)
				}
				if g.Sequences.Device() != d {
					t.Fatalf("the sequences came back on %s, the prompts were on %s", g.Sequences.Device(), d)
				}
				return out, m, g.Sequences.To(tensors.CPU).Int64s()
			}
			want, wm, wseq := run(tensors.CPU)
			mask := padMask(fx["ids"])
			for _, d := range devices {
				got, gm, gseq := run(d)
				testenv.Close(t, d.String()+" logits", realRows(got.Logits.To(tensors.CPU), mask), realRows(want.Logits, mask), 1e-5)
				testenv.Close(t, d.String()+" loss", got.Loss.To(tensors.CPU), want.Loss, 1e-5)
				wp, gp := wm.NamedParameters(), gm.NamedParameters()
				for i := range wp {
					testenv.CloseScaled(t, d.String()+" gradient of "+wp[i].Name, gp[i].Param.Grad().To(tensors.CPU), wp[i].Param.Grad(), 1e-4)
				}
				if !slices.Equal(gseq, wseq) {
					t.Errorf("%s generated %v, the CPU %v", d, gseq, wseq)
				}
			}
		})
	}
}
