// conform-quic-go: quic-go (Debian's golang-github-lucas-clemente-quic-go-dev)
// as an HTTP/3 client and server on loopback, the external plugin's quic-go
// peer. Both write TLS secrets as an NSS key log so conform can decrypt the
// relay's captures.
//
//	conform-quic-go server -listen 127.0.0.1:4433 -cert C -key K -htdocs DIR -keylog F
//	conform-quic-go client -keylog F -n N https://127.0.0.1:4433/path
//
// Exit status: 0 success, 1 a failed request or connection, 2 bad arguments.
package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/lucas-clemente/quic-go"
	"github.com/lucas-clemente/quic-go/http3"
)

const (
	exitFailure = 1
	exitUsage   = 2
)

// Transport parameters both roles take (RFC 9000 §18.2).
type transport struct {
	maxStreamsBidi int64
	maxStreamsUni  int64
	maxData        uint64
	idleTimeoutMs  int64
}

func (t *transport) register(fs *flag.FlagSet) {
	fs.Int64Var(&t.maxStreamsBidi, "max-streams-bidi", 100, "initial_max_streams_bidi: bidirectional streams the peer may open")
	fs.Int64Var(&t.maxStreamsUni, "max-streams-uni", 100, "initial_max_streams_uni: unidirectional streams the peer may open")
	fs.Uint64Var(&t.maxData, "max-data", 1<<20, "initial_max_data: connection receive window, bytes")
	fs.Int64Var(&t.idleTimeoutMs, "idle-timeout-ms", 30000, "max_idle_timeout, ms")
}

func (t *transport) config() *quic.Config {
	return &quic.Config{
		MaxIncomingStreams:             t.maxStreamsBidi,
		MaxIncomingUniStreams:          t.maxStreamsUni,
		InitialConnectionReceiveWindow: t.maxData,
		MaxConnectionReceiveWindow:     t.maxData * 16,
		MaxIdleTimeout:                 time.Duration(t.idleTimeoutMs) * time.Millisecond,
	}
}

func openKeyLog(path string) (io.Writer, error) {
	if path == "" {
		return nil, nil
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
}

func usage(format string, args ...interface{}) int {
	fmt.Fprintf(os.Stderr, "conform-quic-go: "+format+"\n", args...)
	return exitUsage
}

func server(args []string) int {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	listen := fs.String("listen", "", "IPv4-ADDRESS:PORT to bind")
	cert := fs.String("cert", "", "certificate, PEM")
	key := fs.String("key", "", "private key, PEM")
	htdocs := fs.String("htdocs", ".", "document root")
	keylog := fs.String("keylog", "", "append NSS key log lines to this file")
	var t transport
	t.register(fs)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *listen == "" || *cert == "" || *key == "" {
		return usage("server needs -listen, -cert and -key")
	}
	pair, err := tls.LoadX509KeyPair(*cert, *key)
	if err != nil {
		return usage("%s, %s: %v", *cert, *key, err)
	}
	w, err := openKeyLog(*keylog)
	if err != nil {
		return usage("%v", err)
	}
	s := &http3.Server{
		Addr:       *listen,
		Handler:    http.FileServer(http.Dir(*htdocs)),
		TLSConfig:  &tls.Config{Certificates: []tls.Certificate{pair}, KeyLogWriter: w},
		QuicConfig: t.config(),
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		<-stop
		s.Close()
	}()
	fmt.Printf("listening on %s\n", *listen)
	if err := s.ListenAndServe(); err != nil && err != http.ErrServerClosed && err != quic.ErrServerClosed {
		fmt.Fprintf(os.Stderr, "conform-quic-go: %v\n", err)
		return exitFailure
	}
	return 0
}

func client(args []string) int {
	fs := flag.NewFlagSet("client", flag.ContinueOnError)
	keylog := fs.String("keylog", "", "append NSS key log lines to this file")
	n := fs.Int("n", 1, "number of requests; the URLs repeat in order")
	timeout := fs.Duration("timeout", 20*time.Second, "give up after this long")
	var t transport
	t.register(fs)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	urls := fs.Args()
	if len(urls) == 0 {
		return usage("client needs at least one https:// URL")
	}
	w, err := openKeyLog(*keylog)
	if err != nil {
		return usage("%v", err)
	}
	rt := &http3.RoundTripper{
		// The peer's certificate is a throwaway one made for the run.
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true, KeyLogWriter: w},
		QuicConfig:      t.config(),
	}
	c := &http.Client{Transport: rt, Timeout: *timeout}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for i := 0; i < *n; i++ {
		wg.Add(1)
		go func(url string) {
			defer wg.Done()
			resp, err := c.Get(url)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", url, err)
				return
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			fmt.Printf("%s %d %d\n", url, resp.StatusCode, len(body))
			if err == nil && resp.StatusCode == http.StatusOK {
				mu.Lock()
				ok++
				mu.Unlock()
			}
		}(urls[i%len(urls)])
	}
	wg.Wait()
	// Closes the connection with CONNECTION_CLOSE (H3_NO_ERROR).
	rt.Close()
	fmt.Printf("%d of %d requests answered 200\n", ok, *n)
	if ok != *n {
		return exitFailure
	}
	return 0
}

func main() {
	if len(os.Args) < 2 {
		os.Exit(usage("usage: conform-quic-go server|client [options]"))
	}
	switch os.Args[1] {
	case "server":
		os.Exit(server(os.Args[2:]))
	case "client":
		os.Exit(client(os.Args[2:]))
	default:
		os.Exit(usage("unknown command %q: expected server or client", os.Args[1]))
	}
}
