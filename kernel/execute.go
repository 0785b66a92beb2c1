package kernel

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/goaccel/goaccel/kernel/executor"
	"github.com/goaccel/goaccel/kernel/wire"
)

// executeRequest is the content of execute_request.
type executeRequest struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent"`
	StoreHistory    *bool             `json:"store_history"`
	UserExpressions map[string]string `json:"user_expressions"`
	AllowStdin      *bool             `json:"allow_stdin"`
	StopOnError     *bool             `json:"stop_on_error"`
}

func orDefault(b *bool, def bool) bool {
	if b == nil {
		return def
	}
	return *b
}

// execute runs one execute_request and reports whether queued executes must
// be aborted (the cell failed and stop_on_error is set).
func (k *Kernel) execute(ctx context.Context, m *wire.Message) (abort bool) {
	var req executeRequest
	if err := m.Unmarshal(&req); err != nil {
		k.log.Warn("bad execute_request", "err", err)
		k.replyExecuteError(m, &executor.Error{Ename: "BadRequest", Evalue: err.Error(), Traceback: []string{err.Error()}})
		return false
	}
	storeHistory := orDefault(req.StoreHistory, true) && !req.Silent
	if storeHistory {
		k.count++
	}
	// As ipykernel: execute_input and execute_result show the number this
	// cell gets when it is stored; without store_history it is not used up.
	shown := k.count
	if !storeHistory {
		shown++
	}
	if !req.Silent {
		k.publish("execute_input", &m.Header, map[string]any{"code": req.Code, "execution_count": shown})
		k.outLimit.startCell()
		k.setOutputParent(&m.Header)
		k.openTail(&m.Header) // a silent cell's output is dropped: its callbacks are queued instead
	} else {
		// A silent cell publishes nothing; output that background goroutines
		// print afterwards goes to the last visible cell again.
		prev := k.setOutputParent(nil)
		defer k.setOutputParent(prev)
	}
	if storeHistory {
		k.hist.Add(k.count, req.Code, "")
	}
	ereq := executor.ExecRequest{Code: req.Code, UserExpressions: req.UserExpressions, ExecutionCount: shown, Parent: m.Header.MsgID}
	if orDefault(req.AllowStdin, true) {
		ereq.AllowStdin = true
		ereq.Input = func(ctx context.Context, prompt string, password bool) (string, error) {
			return k.askInput(ctx, m, prompt, password)
		}
	}
	out := k.exec.Execute(ctx, ereq)
	res := out.Result
	if dropped := k.outLimit.endCell(); dropped > 0 && !req.Silent {
		k.publish("stream", &m.Header, map[string]any{"name": "stderr", "text": droppedNote(dropped)})
	}
	if res.Error != nil {
		res.Error = k.outLimit.error(res.Error)
		if !req.Silent {
			tb := res.Error.Traceback
			if tb == nil {
				tb = []string{}
			}
			k.publish("error", &m.Header, map[string]any{"ename": res.Error.Ename, "evalue": res.Error.Evalue, "traceback": tb})
		}
		k.replyExecuteError(m, res.Error)
		return orDefault(req.StopOnError, true)
	}
	res.Data = k.outLimit.bundle(res.Data)
	if text, ok := res.Data["text/plain"].(string); ok && storeHistory {
		k.hist.SetOutput(k.count, text)
	}
	if res.Data != nil && !req.Silent {
		md := res.Metadata
		if md == nil {
			md = map[string]any{}
		}
		k.publish("execute_result", &m.Header, map[string]any{"execution_count": shown, "data": res.Data, "metadata": md})
	}
	payload := res.Payload
	if payload == nil {
		payload = []map[string]any{}
	}
	ue := out.UserExpressions
	if ue == nil {
		ue = map[string]any{}
	}
	for _, v := range ue {
		if r, ok := v.(map[string]any); ok {
			if data, ok := r["data"].(map[string]any); ok {
				r["data"] = k.outLimit.bundle(data)
			}
		}
	}
	k.reply(k.shell, m, "execute_reply", map[string]any{
		"status": "ok", "execution_count": k.count, "user_expressions": ue, "payload": payload,
	})
	return false
}

func (k *Kernel) replyExecuteError(m *wire.Message, e *executor.Error) {
	k.failedAt = time.Now()
	tb := e.Traceback
	if tb == nil {
		tb = []string{}
	}
	k.reply(k.shell, m, "execute_reply", map[string]any{
		"status": "error", "execution_count": k.count,
		"ename": e.Ename, "evalue": e.Evalue, "traceback": tb,
		"user_expressions": map[string]any{}, "payload": []any{},
	})
}

// askInput sends an input_request on stdin to the client that sent req and
// waits for its input_reply, or for ctx (an interrupt).
func (k *Kernel) askInput(ctx context.Context, req *wire.Message, prompt string, password bool) (string, error) {
	// Drop replies left over from an earlier, interrupted request.
	for len(k.inputs) > 0 {
		<-k.inputs
	}
	m, err := wire.NewReply(req, "input_request", k.session, map[string]any{"prompt": prompt, "password": password})
	if err != nil {
		return "", err
	}
	if err := k.stdin.send(m); err != nil {
		return "", fmt.Errorf("send input_request: %w", err)
	}
	for {
		select {
		case <-ctx.Done():
			return "", errors.New("interrupted while waiting for input")
		case r := <-k.inputs:
			if r.Parent != nil && r.Parent.MsgID != m.Header.MsgID {
				k.log.Warn("input_reply for another request; ignored", "parent", r.Parent.MsgID)
				continue
			}
			var c struct {
				Value string `json:"value"`
			}
			if err := r.Unmarshal(&c); err != nil {
				return "", err
			}
			return c.Value, nil
		}
	}
}
