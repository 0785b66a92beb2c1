package magics

import (
	"context"
	"strings"
	"testing"

	nl "github.com/goaccel/goaccel/notebook_launcher"
)

// launcherEnv is fakeEnv that records %accelerate launch and export calls.
type launcherEnv struct {
	fakeEnv
	call, dir, output string
	opts              nl.Options
	export            bool
}

func (l *launcherEnv) Launch(_ context.Context, call string, opts nl.Options, output string) (Output, error) {
	l.call, l.opts, l.output = call, opts, output
	return Output{}, nil
}

func (l *launcherEnv) Export(_ context.Context, dir, call string, opts nl.Options) (Output, error) {
	l.dir, l.call, l.opts, l.export = dir, call, opts, true
	return Output{}, nil
}

func TestAccelerateLaunchParsesFlagsAndKeepsTheCallAsWritten(t *testing.T) {
	t.Setenv("HF_HOME", t.TempDir())
	t.Setenv("CUDA_VISIBLE_DEVICES", "")
	for _, tc := range []struct {
		args   string
		call   string
		output string
		check  func(nl.Options) bool
	}{
		{`launch --num_processes 2 --mixed_precision bf16 --gradient_accumulation_steps 4 --cpu --gpu_ids 0,1 --compile -o m train(cfg, Config{Name: "a  b"})`,
			`train(cfg, Config{Name: "a  b"})`, "m", func(o nl.Options) bool {
				return o.NumProcesses == 2 && o.MixedPrecision == "bf16" && o.GradientAccumulationSteps == 4 && o.CPU && o.GPUIDs == "0,1" && o.Compile
			}},
		{"launch hello", "hello", "", func(o nl.Options) bool { return o.NumProcesses == 1 && !o.Compile && o.MixedPrecision == "" }},
		{"launch --num-processes=3   train( x )", "train( x )", "", func(o nl.Options) bool { return o.NumProcesses == 3 }},
	} {
		env := &launcherEnv{}
		if _, err := NewRegistry().Run(context.Background(), Call{Name: "accelerate", Args: tc.args}, env); err != nil {
			t.Errorf("%%accelerate %s: %v", tc.args, err)
			continue
		}
		if env.call != tc.call || env.output != tc.output || !tc.check(env.opts) {
			t.Errorf("%%accelerate %s: call %q output %q opts %+v", tc.args, env.call, env.output, env.opts)
		}
	}
	env := &launcherEnv{}
	if _, err := NewRegistry().Run(context.Background(), Call{Name: "accelerate", Args: "export --num_processes 2 ./job train(cfg)"}, env); err != nil ||
		!env.export || env.dir != "./job" || env.call != "train(cfg)" || env.opts.NumProcesses != 2 {
		t.Errorf("export: %v %+v", err, env)
	}
}

func TestAccelerateMagicRefusesWhatItCannotDo(t *testing.T) {
	t.Setenv("HF_HOME", t.TempDir())
	for _, tc := range []struct {
		args string
		env  Env
		want string
	}{
		{"launch", &launcherEnv{}, "needs a function to run"},
		{"launch --num_processes x train", &launcherEnv{}, "invalid value"},
		{"launch --mixed_precision fp8 train", &launcherEnv{}, "mixed_precision"},
		{"export ./dir", &launcherEnv{}, "needs a folder and a function"},
		{"launch train", &fakeEnv{}, "needs a goaccel notebook session"},
		{"deploy", &launcherEnv{}, "unknown subcommand"},
		{"config verbose", &launcherEnv{}, "is not key=value"},
	} {
		_, err := NewRegistry().Run(context.Background(), Call{Name: "accelerate", Args: tc.args}, tc.env)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%%accelerate %s = %v; want an error containing %q", tc.args, err, tc.want)
		}
	}
}

func TestAccelerateEnvConfigAndHelp(t *testing.T) {
	t.Setenv("HF_HOME", t.TempDir())
	for _, tc := range []struct{ args, want string }{
		{"env", "- Go version: go"},
		{"config num_processes=2", "num_processes: 2"},
		{"config", "num_processes: 2"},
		{"help", "--num_processes"},
	} {
		env := &launcherEnv{}
		if _, err := NewRegistry().Run(context.Background(), Call{Name: "accelerate", Args: tc.args}, env); err != nil || !strings.Contains(env.out.String(), tc.want) {
			t.Errorf("%%accelerate %s: %v\n%s", tc.args, err, env.out.String())
		}
	}
}
