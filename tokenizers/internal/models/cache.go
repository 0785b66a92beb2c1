package models

import (
	"hash/maphash"
	"strings"
	"sync"

	"github.com/goaccel/goaccel/tokenizers/internal/normstr"
)

// cache remembers the tokens of short words, as tokenizers' models do:
// words repeat, and merging or searching them again costs more than a map
// lookup. It stops growing when full; shards keep goroutines of a batch
// from waiting on one lock.
type cache struct {
	seed   maphash.Seed
	shards [16]cacheShard
}

type cacheShard struct {
	mu sync.RWMutex
	m  map[string][]normstr.Token
}

const (
	cacheMaxWord  = 256   // longer words are not kept (tokenizers' MAX_LENGTH)
	cacheCapacity = 10000 // words per model (tokenizers' DEFAULT_CACHE_CAPACITY)
)

func newCache() *cache {
	c := &cache{seed: maphash.MakeSeed()}
	for i := range c.shards {
		c.shards[i].m = map[string][]normstr.Token{}
	}
	return c
}

func (c *cache) shard(s string) *cacheShard {
	return &c.shards[maphash.String(c.seed, s)%uint64(len(c.shards))]
}

func (c *cache) get(s string) ([]normstr.Token, bool) {
	if len(s) >= cacheMaxWord {
		return nil, false
	}
	sh := c.shard(s)
	sh.mu.RLock()
	t, ok := sh.m[s]
	sh.mu.RUnlock()
	return t, ok
}

func (c *cache) put(s string, t []normstr.Token) {
	if len(s) >= cacheMaxWord {
		return
	}
	sh := c.shard(s)
	sh.mu.Lock()
	if len(sh.m) < cacheCapacity/len(c.shards) {
		sh.m[strings.Clone(s)] = t
	}
	sh.mu.Unlock()
}
