package displaysink

import "testing"

type recorder struct{ n int }

func (r *recorder) Send(string, map[string]any) { r.n++ }

func TestGetReturnsWhatSetInstalledAndNilAfterReset(t *testing.T) {
	if Get() != nil {
		t.Fatal("Get before Set: want nil")
	}
	r := &recorder{}
	Set(r)
	Get().Send("display_data", nil)
	if r.n != 1 {
		t.Fatalf("sink got %d messages, want 1", r.n)
	}
	Set(nil)
	if Get() != nil {
		t.Fatal("Get after Set(nil): want nil")
	}
}
