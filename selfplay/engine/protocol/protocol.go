// Package protocol serves our engine on a stream in the protocol asked
// for, or the one its first command shows: USI ("usi") or CECP (xboard,
// anything else). It sits above the protocol packages (selfplay/cecp,
// selfplay/usi), which share selfplay/engine.
package protocol

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"chuzero/selfplay/cecp"
	"chuzero/selfplay/engine"
	"chuzero/selfplay/usi"
)

// Serve runs our engine of protocol ("usi", "cecp", or "auto": USI if the
// first command is "usi", else CECP) on in and out until the GUI quits,
// in ends or ctx is done. Under "auto" the first command is read a byte
// at a time, so nothing past it is taken from in, and then handed to the
// engine as if unread.
func Serve(ctx context.Context, protocol string, cfg engine.Config, in *os.File, out io.Writer) error {
	switch protocol {
	case "auto", "cecp", "usi":
	default:
		return fmt.Errorf("protocol: unknown protocol %q (auto, cecp, usi)", protocol)
	}
	var r io.Reader = in
	if protocol == "auto" {
		head := readFirstCommand(in)
		protocol = "cecp"
		if strings.TrimSpace(head) == "usi" {
			protocol = "usi"
		}
		r = &replayFile{head: strings.NewReader(head), f: in}
	}
	if protocol == "usi" {
		e, err := usi.New(cfg)
		if err != nil {
			return err
		}
		return e.Serve(ctx, r, out)
	}
	e, err := cecp.New(cfg)
	if err != nil {
		return err
	}
	return e.Serve(ctx, r, out)
}

// readFirstCommand reads in up to the end of its first line that is not
// blank, a byte at a time so as to read nothing past it; it returns what
// it read (less at the input's end or an error).
func readFirstCommand(in io.Reader) string {
	var b strings.Builder
	var c [1]byte
	for b.Len() < 1<<16 {
		n, err := in.Read(c[:])
		if n == 1 {
			b.WriteByte(c[0])
			if c[0] == '\n' && strings.TrimSpace(b.String()) != "" {
				break
			}
		}
		if err != nil {
			break
		}
	}
	return b.String()
}

// replayFile reads head, then f; it keeps f's read deadline, with which an
// engine ends its reader at once on quit.
type replayFile struct {
	head *strings.Reader
	f    *os.File
}

func (r *replayFile) Read(p []byte) (int, error) {
	if r.head.Len() > 0 {
		return r.head.Read(p)
	}
	return r.f.Read(p)
}

func (r *replayFile) SetReadDeadline(t time.Time) error { return r.f.SetReadDeadline(t) }
