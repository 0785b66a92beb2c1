package executor

import (
	"context"
	"strings"
	"testing"
)

func TestSwitchMovesTheSessionToTheNewExecutorAndRunsTheCellThere(t *testing.T) {
	s, rec := newFake(t)
	s.Execute(context.Background(), ExecRequest{Code: "declare f"})
	s.Execute(context.Background(), ExecRequest{Code: "set x=1"})
	out := s.Execute(context.Background(), ExecRequest{Code: "switch"})
	if out.Result.Error != nil || out.Restarted || len(out.Result.Switch) > 0 {
		t.Fatalf("switch outcome = %+v %+v", out, out.Result.Error)
	}
	if got := rec.stream("stdout"); !strings.Contains(got, "ran in the switched child") {
		t.Errorf("stdout %q: the cell did not run again in the new child", got)
	}
	if got := rec.stream("stderr"); !strings.Contains(got, "declarations restored: f; variables lost: x") {
		t.Errorf("stderr %q lacks the restore note", got)
	}
	if got := s.Execute(context.Background(), ExecRequest{Code: "has f"}); got.Result.Data["text/plain"] != "true" {
		t.Errorf("after the switch, has f = %+v", got.Result)
	}
	// The new binary stays: a crash restarts it, not the old one.
	s.Execute(context.Background(), ExecRequest{Code: "exit"})
	rec.mu.Lock()
	rec.events = nil
	rec.mu.Unlock()
	s.Execute(context.Background(), ExecRequest{Code: "switch"})
	if got := rec.stream("stdout"); !strings.Contains(got, "ran in the switched child") {
		t.Errorf("after a crash, stdout %q: the restart went back to the old binary", got)
	}
}

func TestACrashRestoresDeclarationsAndNamesTheLostVariables(t *testing.T) {
	s, _ := newFake(t)
	s.Execute(context.Background(), ExecRequest{Code: "declare f"})
	s.Execute(context.Background(), ExecRequest{Code: "set x=1"})
	out := s.Execute(context.Background(), ExecRequest{Code: "exit"})
	if out.Result.Error == nil || !out.Restarted || !strings.Contains(out.Result.Error.Evalue, RestartedNote+"; declarations restored: f; variables lost: x") {
		t.Fatalf("crash outcome = %+v %+v", out, out.Result.Error)
	}
	if got := s.Execute(context.Background(), ExecRequest{Code: "has f"}); got.Result.Data["text/plain"] != "true" {
		t.Errorf("after the crash, has f = %+v", got.Result)
	}
}

func TestAGoroutinePanicsRestartRestoresAndLaterCellsAddToTheSession(t *testing.T) {
	s, rec := newFake(t)
	s.Execute(context.Background(), ExecRequest{Code: "declare g"})
	s.Execute(context.Background(), ExecRequest{Code: "panicgo"}) // dies during the cell
	s.Execute(context.Background(), ExecRequest{Code: "declare h"})
	if got := s.Execute(context.Background(), ExecRequest{Code: "has g"}); got.Result.Data["text/plain"] != "true" {
		t.Errorf("has g = %+v; stderr %q", got.Result, rec.stream("stderr"))
	}
}

func TestASessionWithNothingToRestoreSaysSoOnlyAfterACrash(t *testing.T) {
	tests := []struct {
		cell      string
		restarted bool
		note      string // in the cell's error
	}{
		{cell: "exit", restarted: true, note: RestartedNote + "; the session had nothing to restore"},
		{cell: "switch"},
	}
	for _, tt := range tests {
		t.Run(tt.cell, func(t *testing.T) {
			s, rec := newFake(t)
			out := s.Execute(context.Background(), ExecRequest{Code: tt.cell})
			if out.Restarted != tt.restarted {
				t.Errorf("restarted = %v; want %v", out.Restarted, tt.restarted)
			}
			switch {
			case tt.note == "" && out.Result.Error != nil:
				t.Errorf("error %+v; want none", out.Result.Error)
			case tt.note != "" && (out.Result.Error == nil || !strings.Contains(out.Result.Error.Evalue, tt.note)):
				t.Errorf("error %+v; want one saying %q", out.Result.Error, tt.note)
			}
			if got := rec.stream("stderr"); strings.Contains(got, "restore") {
				t.Errorf("stderr %q tells of a restore", got)
			}
		})
	}
}
