package admin

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/mapsco/maps/pkg/ledger"
)

const (
	// maxLine bounds one request: the largest is a few hundred bytes.
	maxLine = 1 << 20
	// idleTimeout closes a connection that sends nothing for this long.
	idleTimeout = 5 * time.Minute
	// requestTimeout bounds one request's work on the ledger; a verify of
	// a large ledger is the longest.
	requestTimeout = 10 * time.Minute
	// writeTimeout bounds writing one answer to a client that reads it.
	writeTimeout = 30 * time.Second
)

// Server answers admin requests from the socket with a ledger.Admin.
type Server struct {
	admin ledger.Admin
	log   *slog.Logger
	ops   map[string]opFunc

	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// opFunc runs one op: decode args, call the ledger, return the result.
type opFunc func(ctx context.Context, args json.RawMessage) (any, error)

// NewServer returns a server of a (typically the Store mapd serves from).
// Every request is logged at Info with its op, subject and outcome; log nil
// discards them.
func NewServer(a ledger.Admin, log *slog.Logger) *Server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{admin: a, log: log, ctx: ctx, cancel: cancel, conns: map[net.Conn]struct{}{}}
	s.ops = s.opTable()
	return s
}

// Serve accepts connections on ln until Close, and returns nil then.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ln.Close()
		return nil
	}
	s.ln = ln
	s.mu.Unlock()
	for {
		conn, err := ln.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed {
				return nil
			}
			return fmt.Errorf("admin: accepting on %s: %w", ln.Addr(), err)
		}
		if !s.track(conn) {
			conn.Close()
			return nil
		}
		go s.serveConn(conn)
	}
}

// track registers a connection unless the server is closing.
func (s *Server) track(conn net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns[conn] = struct{}{}
	s.wg.Add(1)
	return true
}

// closeGrace is how long Close lets requests in flight finish before it
// cancels their contexts (a verify of a large ledger stops then; a change
// either completes or is rolled back, never half made).
const closeGrace = 5 * time.Second

// Close stops accepting, ends every connection once its request in flight
// (if any) is answered, cancelling requests still running after closeGrace,
// and removes the socket.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	var err error
	if s.ln != nil {
		err = s.ln.Close()
	}
	for c := range s.conns {
		c.SetReadDeadline(time.Now()) // wakes idle readers; a request in flight still gets its answer
	}
	s.mu.Unlock()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(closeGrace):
		s.cancel()
		<-done
	}
	s.cancel()
	return err
}

func (s *Server) serveConn(conn net.Conn) {
	defer func() {
		conn.Close()
		s.mu.Lock()
		delete(s.conns, conn)
		s.mu.Unlock()
		s.wg.Done()
	}()
	r := bufio.NewReader(conn)
	for {
		s.mu.Lock()
		closed := s.closed
		s.mu.Unlock()
		if closed {
			return
		}
		conn.SetReadDeadline(time.Now().Add(idleTimeout))
		line, err := readLine(r)
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) && !isTimeout(err) {
				s.log.Warn("admin connection dropped", "err", err.Error())
			}
			return
		}
		resp := s.handle(line)
		out, err := json.Marshal(resp)
		if err != nil {
			out, _ = json.Marshal(response{Error: &wireError{Message: "admin: encoding the answer: " + err.Error()}})
		}
		conn.SetWriteDeadline(time.Now().Add(writeTimeout))
		if _, err := conn.Write(append(out, '\n')); err != nil {
			return
		}
	}
}

// readLine reads one line of at most maxLine bytes, without its newline.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxLine {
			return nil, fmt.Errorf("admin: request longer than %d bytes", maxLine)
		}
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return nil, io.ErrUnexpectedEOF
		default:
			return nil, err
		}
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// handle decodes and runs one request and logs it.
func (s *Server) handle(line []byte) response {
	start := time.Now()
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return response{Error: encodeError(fmt.Errorf("%w: admin request is not JSON: %w", ledger.ErrInvalidArgument, err))}
	}
	op, ok := s.ops[req.Op]
	if !ok {
		return response{Error: encodeError(fmt.Errorf("%w: unknown admin op %q", ledger.ErrInvalidArgument, req.Op))}
	}
	ctx, cancel := context.WithTimeout(s.ctx, requestTimeout)
	defer cancel()
	result, err := op(ctx, req.Args)
	attrs := []any{"op", req.Op, "duration_ms", time.Since(start).Milliseconds()}
	attrs = append(attrs, subject(req.Args)...)
	if err != nil {
		s.log.Info("admin request", append(attrs, "err", err.Error())...)
		return response{Error: encodeError(err)}
	}
	s.log.Info("admin request", attrs...)
	raw, err := json.Marshal(result)
	if err != nil {
		return response{Error: encodeError(fmt.Errorf("admin: encoding the result of %s: %w", req.Op, err))}
	}
	return response{Result: raw}
}

// subject returns the ids a request names, for its log line (never a
// secret: no request carries one).
func subject(args json.RawMessage) []any {
	var ids struct {
		AccountID string `json:"account_id"`
		KeyID     string `json:"key_id"`
		RequestID string `json:"request_id"`
	}
	_ = json.Unmarshal(args, &ids)
	var out []any
	for _, kv := range [][2]string{{"account_id", ids.AccountID}, {"key_id", ids.KeyID}, {"request_id", ids.RequestID}} {
		if kv[1] != "" {
			out = append(out, kv[0], kv[1])
		}
	}
	return out
}

// decodeArgs reads an op's arguments strictly: a misspelt field is an
// error rather than a zero.
func decodeArgs(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: admin arguments: %w", ledger.ErrInvalidArgument, err)
	}
	return nil
}
