package dist

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/goaccel/goaccel/dist/internal/mesh"
	"github.com/goaccel/goaccel/dist/internal/store"
	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/internal/workerinfo"
)

// minInitTimeout is the least time Init waits for the other ranks.
const minInitTimeout = 2 * time.Minute

// Init joins this process to its group: it meets the other ranks at the
// rendezvous store (hosted by rank 0 at MasterAddr:MasterPort unless
// StoreAddr names one), connects to every peer and opens the backend. With
// WorldSize 1 it returns a group whose collectives are identity operations.
// It fails if the peers do not all arrive within cfg.Timeout (at least two
// minutes) or before ctx ends, and at once, naming it, if a rank that
// joined the rendezvous dies.
func Init(ctx context.Context, cfg Config) (*Group, error) {
	if cfg.WorldSize == 0 {
		cfg.WorldSize, cfg.LocalWorldSize = 1, 1
	}
	if cfg.LocalWorldSize == 0 {
		cfg.LocalWorldSize = cfg.WorldSize
	}
	if cfg.Source == "" {
		cfg.Source = "config"
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	g := &Group{cfg: cfg, transport: "single"}
	g.root = g
	w := host.Current().Worker
	defer w.SetPhase(w.SetPhase(workerinfo.PhaseJoining))
	if cfg.WorldSize == 1 {
		g.backend = single{}
		return g, nil
	}
	open, err := lookupBackend(cfg.Backend)
	if err != nil {
		return nil, err
	}
	// Processes start at different speeds (loading data, a busy machine):
	// rendezvous waits at least minInitTimeout even under a short collective timeout.
	ctx, cancel := context.WithTimeout(ctx, max(cfg.timeout(), minInitTimeout))
	defer cancel()
	if err := g.rendezvous(ctx); err != nil {
		g.Close()
		return nil, fmt.Errorf("dist: init rank %d of %d: %w", cfg.Rank, cfg.WorldSize, peerLost(err))
	}
	rv := &Rendezvous{Config: cfg, Store: g.store, Hosts: g.hosts, Lost: g.mesh.Ended(), PeerErr: g.mesh.EndErr, mesh: g.mesh}
	b, err := open(ctx, rv)
	if err != nil {
		g.Close()
		return nil, fmt.Errorf("dist: init rank %d of %d: open backend: %w", cfg.Rank, cfg.WorldSize, peerLost(err))
	}
	g.backend = b
	if t, ok := b.(interface{ Transport() string }); ok {
		g.transport = t.Transport()
	} else {
		g.transport = cfg.Backend
	}
	slog.Debug("dist: joined the group", "rank", cfg.Rank, "size", cfg.WorldSize, "local_size", cfg.LocalWorldSize, "transport", g.transport)
	return g, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// rendezvous connects to (or hosts) the store and builds the peer mesh.
func (g *Group) rendezvous(ctx context.Context) error {
	cfg := g.cfg
	addr := cfg.StoreAddr
	if addr == "" {
		addr = net.JoinHostPort(cfg.MasterAddr, strconv.Itoa(cfg.MasterPort))
	}
	host, _, _ := net.SplitHostPort(addr)
	oneHost := cfg.LocalWorldSize == cfg.WorldSize && isLoopback(host)
	token := cfg.Token
	if token == "" && !oneHost {
		slog.Warn("dist: no GOACCEL_STORE_TOKEN across hosts; the rendezvous store accepts any goaccel process that reaches it", "store", addr)
	}
	useFile := token == "" && oneHost
	if cfg.Rank == 0 && cfg.StoreAddr == "" {
		if useFile {
			g.tokenPath = tokenFile(cfg.MasterPort)
			t, err := writeTokenFile(g.tokenPath)
			if err != nil {
				return err
			}
			token = t
		}
		bind := net.JoinHostPort("", strconv.Itoa(cfg.MasterPort))
		if isLoopback(host) {
			bind = addr
		}
		srv, err := store.Serve(bind, []byte(token))
		if err != nil {
			return fmt.Errorf("host the rendezvous store (is MASTER_PORT %d in use by another job?): %w", cfg.MasterPort, err)
		}
		g.server = srv
	}
	var c *store.Client
	var err error
	if useFile && g.server == nil {
		c, token, err = dialWithTokenFile(ctx, addr, tokenFile(cfg.MasterPort), cfg.Rank)
	} else {
		c, err = store.Dial(ctx, addr, []byte(token), cfg.Rank)
	}
	if err != nil {
		return err
	}
	g.client = c
	if err := c.Register(ctx, cfg.Rank); err != nil {
		return err
	}
	gen, err := c.Add(ctx, "generation/"+strconv.Itoa(cfg.Rank), 1)
	if err != nil {
		return err
	}
	st := scoped{s: c, prefix: "g" + strconv.FormatInt(gen, 10) + "/"}
	g.store = st

	listenHost := "127.0.0.1"
	if !isLoopback(host) {
		listenHost = c.LocalIP()
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(listenHost, "0"))
	if err != nil {
		return fmt.Errorf("listen for peers: %w", err)
	}
	me := strconv.Itoa(cfg.Rank)
	if err := st.Set(ctx, "addr/"+me, []byte(ln.Addr().String())); err != nil {
		ln.Close()
		return err
	}
	if err := st.Set(ctx, "host/"+me, []byte(hostID())); err != nil {
		ln.Close()
		return err
	}
	addrs := make([]string, cfg.WorldSize)
	g.hosts = make([]string, cfg.WorldSize)
	for r := range addrs {
		a, err := st.Get(ctx, "addr/"+strconv.Itoa(r))
		if err != nil {
			ln.Close()
			return err
		}
		h, err := st.Get(ctx, "host/"+strconv.Itoa(r))
		if err != nil {
			ln.Close()
			return err
		}
		addrs[r], g.hosts[r] = string(a), string(h)
	}
	m, err := mesh.Establish(ctx, cfg.Rank, cfg.WorldSize, []byte(token), ln, addrs, hostLabels(g.hosts, addrs))
	if err != nil {
		return err
	}
	g.mesh = m
	return nil
}

// hostID identifies this machine (and boot), so ranks can tell which peers
// share memory with them.
func hostID() string {
	if id := os.Getenv(EnvHostID); id != "" {
		return id
	}
	name, _ := os.Hostname()
	boot, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	return name + "/" + strings.TrimSpace(string(boot))
}

// hostLabels names each rank's host for errors: its hostname (the host ID
// without the boot ID) and the address its peers reach it at.
func hostLabels(hostIDs, addrs []string) []string {
	labels := make([]string, len(hostIDs))
	for r, id := range hostIDs {
		name, _, _ := strings.Cut(id, "/")
		ip, _, err := net.SplitHostPort(addrs[r])
		switch {
		case err != nil || ip == name:
			labels[r] = name
		case name == "":
			labels[r] = ip
		default:
			labels[r] = name + " at " + ip
		}
	}
	return labels
}

// peerLost turns the internal loss reports into *PeerLostError.
func peerLost(err error) error {
	if err == nil {
		return nil
	}
	var me *mesh.PeerError
	if errors.As(err, &me) {
		reason := me.Reason
		if me.Reporter >= 0 {
			reason += fmt.Sprintf(" (reported by rank %d)", me.Reporter)
		}
		return &wrapped{lost: &PeerLostError{Rank: me.Rank, Host: me.Host, Reason: reason}, err: err}
	}
	var se *store.LostError
	if errors.As(err, &se) {
		return &wrapped{lost: &PeerLostError{Rank: se.Rank, Reason: se.Reason}, err: err}
	}
	return err
}

// wrapped keeps the original error chain and adds the public loss error.
type wrapped struct {
	lost *PeerLostError
	err  error
}

func (w *wrapped) Error() string   { return w.err.Error() }
func (w *wrapped) Unwrap() []error { return []error{w.lost, w.err} }
