package workers

import (
	"strings"
	"testing"
)

func TestNormalizeFillsDefaultsAndNamesTheBadField(t *testing.T) {
	t.Setenv("CUDA_VISIBLE_DEVICES", "")
	c := Config{}
	if err := c.Normalize(); err != nil {
		t.Fatal(err)
	}
	if c.NumProcesses != 1 || c.NumNodes != 1 || c.MasterAddr != "127.0.0.1" {
		t.Errorf("defaults = %+v; want 1 process (no visible GPU), 1 node, 127.0.0.1", c)
	}
	for _, tc := range []struct {
		c    Config
		want string
	}{
		{Config{Options: Options{NumProcesses: -1}}, "NumProcesses"},
		{Config{Options: Options{MixedPrecision: "fp8"}}, "MixedPrecision"},
		{Config{Options: Options{GradientAccumulationSteps: -2}}, "GradientAccumulationSteps"},
		{Config{Options: Options{NumNodes: 2}}, "Port must be set"},
		{Config{Options: Options{NumNodes: 2, NodeRank: 3, Port: 1}}, "NodeRank"},
	} {
		if err := tc.c.Normalize(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Normalize(%+v) = %v; want an error naming %s", tc.c, err, tc.want)
		}
	}
}

func TestVisibleGPUsHonoursCUDAVisibleDevices(t *testing.T) {
	for _, v := range []string{"", "-1"} {
		t.Setenv("CUDA_VISIBLE_DEVICES", v)
		if n := VisibleGPUs(); n != 0 {
			t.Errorf("VisibleGPUs with CUDA_VISIBLE_DEVICES=%q = %d; want 0", v, n)
		}
	}
}
