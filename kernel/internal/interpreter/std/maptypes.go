package std

import (
	"encoding"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"log"
	"reflect"
)

// MapTypes tells the interpreter, for compiled functions taking an
// interface{} whose behaviour depends on the interfaces the argument
// implements, which interfaces to wrap an interpreted value in: a cell's
// type with a MarshalJSON method reaches json.Marshal as a json.Marshaler.
// (The interpreter prints for fmt and log itself; these serve their
// Scan functions and the encoders.)
var MapTypes = map[reflect.Value][]reflect.Type{}

func ifaces(ps ...any) []reflect.Type {
	out := make([]reflect.Type, len(ps))
	for i, p := range ps {
		out[i] = reflect.TypeOf(p).Elem()
	}
	return out
}

func init() {
	printing := ifaces((*fmt.Formatter)(nil), (*fmt.Stringer)(nil))
	for _, f := range []any{fmt.Errorf, fmt.Fprint, fmt.Fprintf, fmt.Fprintln, fmt.Print, fmt.Printf, fmt.Println,
		fmt.Sprint, fmt.Sprintf, fmt.Sprintln, log.Fatal, log.Fatalf, log.Fatalln, log.Panic, log.Panicf, log.Panicln} {
		MapTypes[reflect.ValueOf(f)] = printing
	}
	scanning := ifaces((*fmt.Scanner)(nil))
	for _, f := range []any{fmt.Scan, fmt.Scanf, fmt.Scanln, fmt.Fscan, fmt.Fscanf, fmt.Fscanln, fmt.Sscan, fmt.Sscanf, fmt.Sscanln} {
		MapTypes[reflect.ValueOf(f)] = scanning
	}
	marshal := func(m any) []reflect.Type { return ifaces(m, (*encoding.TextMarshaler)(nil)) }
	unmarshal := func(m any) []reflect.Type { return ifaces(m, (*encoding.TextUnmarshaler)(nil)) }
	MapTypes[reflect.ValueOf(json.Marshal)] = marshal((*json.Marshaler)(nil))
	MapTypes[reflect.ValueOf(json.MarshalIndent)] = marshal((*json.Marshaler)(nil))
	MapTypes[reflect.ValueOf(json.Unmarshal)] = unmarshal((*json.Unmarshaler)(nil))
	MapTypes[reflect.ValueOf(xml.Marshal)] = marshal((*xml.Marshaler)(nil))
	MapTypes[reflect.ValueOf(xml.MarshalIndent)] = marshal((*xml.Marshaler)(nil))
	MapTypes[reflect.ValueOf(xml.Unmarshal)] = unmarshal((*xml.Unmarshaler)(nil))
	Symbols["."] = map[string]reflect.Value{"MapTypes": reflect.ValueOf(MapTypes)}
}
