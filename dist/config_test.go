package dist

import (
	"strings"
	"testing"
	"time"
)

func envMap(kv ...string) lookupFunc {
	m := map[string]string{}
	for _, s := range kv {
		k, v, _ := strings.Cut(s, "=")
		m[k] = v
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestFromEnvReadsEachLauncher(t *testing.T) {
	cases := []struct {
		name string
		env  []string
		want Config
	}{
		{"nothing set is one process", nil,
			Config{Rank: 0, WorldSize: 1, LocalRank: 0, LocalWorldSize: 1, MasterAddr: "127.0.0.1", MasterPort: 29500, Source: "single"}},
		{"WORLD_SIZE=1 alone is one process", []string{"WORLD_SIZE=1"},
			Config{WorldSize: 1, LocalWorldSize: 1, MasterAddr: "127.0.0.1", MasterPort: 29500, Source: "single"}},
		{"torchrun", []string{"RANK=3", "WORLD_SIZE=4", "LOCAL_RANK=1", "LOCAL_WORLD_SIZE=2", "MASTER_ADDR=10.0.0.1", "MASTER_PORT=1234"},
			Config{Rank: 3, WorldSize: 4, LocalRank: 1, LocalWorldSize: 2, MasterAddr: "10.0.0.1", MasterPort: 1234, Source: "torchrun"}},
		{"torchrun without local variables is one host", []string{"RANK=1", "WORLD_SIZE=2"},
			Config{Rank: 1, WorldSize: 2, LocalRank: 1, LocalWorldSize: 2, MasterAddr: "127.0.0.1", MasterPort: 29500, Source: "torchrun"}},
		{"RANK wins over Open MPI", []string{"RANK=0", "WORLD_SIZE=2", "OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=2"},
			Config{Rank: 0, WorldSize: 2, LocalRank: 0, LocalWorldSize: 2, MasterAddr: "127.0.0.1", MasterPort: 29500, Source: "torchrun"}},
		{"Open MPI", []string{"OMPI_COMM_WORLD_RANK=5", "OMPI_COMM_WORLD_SIZE=8", "OMPI_COMM_WORLD_LOCAL_RANK=1", "OMPI_COMM_WORLD_LOCAL_SIZE=4", "MASTER_ADDR=node0"},
			Config{Rank: 5, WorldSize: 8, LocalRank: 1, LocalWorldSize: 4, MasterAddr: "node0", MasterPort: 29500, Source: "openmpi"}},
		{"Open MPI wins over Slurm", []string{"OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=2", "SLURM_PROCID=0", "SLURM_NTASKS=2"},
			Config{Rank: 1, WorldSize: 2, LocalRank: 1, LocalWorldSize: 2, MasterAddr: "127.0.0.1", MasterPort: 29500, Source: "openmpi"}},
		{"Slurm with tasks per node", []string{"SLURM_PROCID=3", "SLURM_NTASKS=6", "SLURM_LOCALID=0", "SLURM_TASKS_PER_NODE=3(x2)", "MASTER_ADDR=n1", "MASTER_PORT=29600"},
			Config{Rank: 3, WorldSize: 6, LocalRank: 0, LocalWorldSize: 3, MasterAddr: "n1", MasterPort: 29600, Source: "slurm"}},
		{"Slurm with node count", []string{"SLURM_PROCID=2", "SLURM_NTASKS=4", "SLURM_LOCALID=0", "SLURM_NNODES=2", "MASTER_ADDR=n1"},
			Config{Rank: 2, WorldSize: 4, LocalRank: 0, LocalWorldSize: 2, MasterAddr: "n1", MasterPort: 29500, Source: "slurm"}},
		{"goaccel variables", []string{"RANK=0", "WORLD_SIZE=2", "GOACCEL_STORE_ADDR=127.0.0.1:5000", "GOACCEL_STORE_TOKEN=abc", "GOACCEL_DIST_TRANSPORT=tcp", "GOACCEL_DIST_TIMEOUT=90s", "GOACCEL_DIST_BACKEND=cpu"},
			Config{Rank: 0, WorldSize: 2, LocalWorldSize: 2, MasterAddr: "127.0.0.1", MasterPort: 29500, StoreAddr: "127.0.0.1:5000", Token: "abc", Transport: "tcp", Timeout: 90 * time.Second, Backend: "cpu", Source: "torchrun"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := fromEnv(envMap(c.env...))
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestFromEnvRejectsInconsistentValues(t *testing.T) {
	cases := []struct {
		name string
		env  []string
		want string // part of the message
	}{
		{"WORLD_SIZE without RANK", []string{"WORLD_SIZE=2"}, "RANK is not"},
		{"RANK without WORLD_SIZE", []string{"RANK=0"}, "WORLD_SIZE is missing"},
		{"rank not below world size", []string{"RANK=2", "WORLD_SIZE=2"}, "rank 2 is outside [0, 2)"},
		{"negative rank", []string{"RANK=-1", "WORLD_SIZE=2"}, "outside"},
		{"zero world size", []string{"RANK=0", "WORLD_SIZE=0"}, "at least 1"},
		{"not a number", []string{"RANK=one", "WORLD_SIZE=2"}, `RANK="one" is not an integer`},
		{"local rank too big", []string{"RANK=1", "WORLD_SIZE=2", "LOCAL_RANK=2", "LOCAL_WORLD_SIZE=2"}, "local rank 2"},
		{"local world larger than world", []string{"RANK=0", "WORLD_SIZE=2", "LOCAL_WORLD_SIZE=4"}, "local world size 4"},
		{"multi-host without MASTER_ADDR", []string{"RANK=0", "WORLD_SIZE=4", "LOCAL_WORLD_SIZE=2"}, "MASTER_ADDR is not set"},
		{"bad port", []string{"RANK=0", "WORLD_SIZE=2", "MASTER_PORT=70000"}, "not a TCP port"},
		{"bad timeout", []string{"RANK=0", "WORLD_SIZE=2", "GOACCEL_DIST_TIMEOUT=soon"}, "not a positive duration"},
		{"bad transport", []string{"RANK=0", "WORLD_SIZE=2", "GOACCEL_DIST_TRANSPORT=udp"}, `transport "udp"`},
		{"Open MPI without size", []string{"OMPI_COMM_WORLD_RANK=0"}, "OMPI_COMM_WORLD_SIZE is missing"},
		{"Slurm rank beyond tasks", []string{"SLURM_PROCID=4", "SLURM_NTASKS=4"}, "slurm environment"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := fromEnv(envMap(c.env...))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want an error containing %q, got %v", c.want, err)
			}
		})
	}
}
