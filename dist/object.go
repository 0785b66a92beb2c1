package dist

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"reflect"
)

// GatherObject gathers one gob-encodable value from every rank into out, a
// pointer to a slice of v's type, indexed by rank (torch's
// all_gather_object: every rank receives the list).
//
//	var all []map[string]float64
//	err := g.GatherObject(ctx, metrics, &all)
func (g *Group) GatherObject(ctx context.Context, v any, out any) error {
	pv := reflect.ValueOf(out)
	if pv.Kind() != reflect.Pointer || pv.IsNil() || pv.Elem().Kind() != reflect.Slice {
		return fmt.Errorf("dist: gather-object: out must be a non-nil pointer to a slice, got %T", out)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		return fmt.Errorf("dist: gather-object: encode %T: %w", v, err)
	}
	parts, err := g.allGatherV(ctx, buf.Bytes(), 1)
	if err != nil {
		return err
	}
	slice := reflect.MakeSlice(pv.Elem().Type(), len(parts), len(parts))
	for r, p := range parts {
		if err := gob.NewDecoder(bytes.NewReader(p)).DecodeValue(slice.Index(r)); err != nil {
			return fmt.Errorf("dist: gather-object: decode rank %d's value into %v: %w", r, slice.Type().Elem(), err)
		}
	}
	pv.Elem().Set(slice)
	return nil
}

// BroadcastObject makes *ptr on every rank equal to *ptr on root, through
// gob (torch's broadcast_object_list). ptr must be a non-nil pointer.
func (g *Group) BroadcastObject(ctx context.Context, ptr any, root int) error {
	pv := reflect.ValueOf(ptr)
	if pv.Kind() != reflect.Pointer || pv.IsNil() {
		return fmt.Errorf("dist: broadcast-object: want a non-nil pointer, got %T", ptr)
	}
	var payload []byte
	if g.Rank() == root {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).EncodeValue(pv.Elem()); err != nil {
			return fmt.Errorf("dist: broadcast-object: encode %v: %w", pv.Elem().Type(), err)
		}
		payload = buf.Bytes()
	}
	n := []int64{int64(len(payload))}
	if err := g.BroadcastInt64(ctx, n, root); err != nil {
		return err
	}
	if g.Rank() != root {
		payload = make([]byte, n[0])
	}
	if err := g.broadcast(ctx, payload, root); err != nil {
		return err
	}
	if g.Rank() == root {
		return nil
	}
	fresh := reflect.New(pv.Elem().Type())
	if err := gob.NewDecoder(bytes.NewReader(payload)).DecodeValue(fresh); err != nil {
		return fmt.Errorf("dist: broadcast-object: decode into %v: %w", pv.Elem().Type(), err)
	}
	pv.Elem().Set(fresh.Elem())
	return nil
}
