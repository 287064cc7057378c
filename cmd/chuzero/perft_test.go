package main

import (
	"bytes"
	"strings"
	"testing"
)

// runCmd runs a chuzero command in-process.
func runCmd(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestPerftCommand(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"perft", "-depth", "3"}, "48315"},
		{[]string{"perft", "-variant", "chu", "-depth", "2", "-workers", "1"}, "1296"},
		{[]string{"perft", "-variant", "sho", "-depth", "3"}, "17368"},
		{[]string{"perft", "-variant", "heian", "-depth", "2"}, "841"},
		{[]string{"perft", "-variant", "sho", "-fen", "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w - - 0 1", "-depth", "2"}, "676"},
		{[]string{"perft", "-sfen", "10p1/2I1pP2p1LL/1Rp1PB2LL2/12/7L4/1p10/12/12/11k/12/11K/12 b - 1", "-depth", "2", "-rule", "LanceLastRankPromotion=On"}, "466"},
		{[]string{"perft", "-depth", "0"}, "1"},
	}
	for _, tt := range tests {
		code, out, errs := runCmd(tt.args...)
		if code != 0 || lastLine(out) != tt.want {
			t.Errorf("chuzero %v: exit %d, last line %q, want %q (stderr %q)", tt.args, code, lastLine(out), tt.want, errs)
		}
	}
}

func TestPerftMoves(t *testing.T) {
	_, viaMoves, _ := runCmd("perft", "-depth", "2", "-moves", "f3f5 g10g8")
	_, viaSFEN, _ := runCmd("perft", "-depth", "2", "-sfen",
		"lfcsgekgscfl/a1b1txot1b1a/mvrhdq1dhrvm/pppppppppppp/3i2n1i3/12/12/3I1N2I3/PPPPPPPPPPPP/MVRHD1QDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 3")
	if lastLine(viaMoves) != lastLine(viaSFEN) || lastLine(viaMoves) == "" {
		t.Errorf("-moves gives %q, the SFEN %q", lastLine(viaMoves), lastLine(viaSFEN))
	}
}

func TestPerftDivide(t *testing.T) {
	code, out, _ := runCmd("perft", "-depth", "2", "-divide")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 37 || lines[36] != "1296" {
		t.Fatalf("divide: exit %d, %d lines, last %q", code, len(lines), lines[len(lines)-1])
	}
	if lines[0] != "a4a5 36" {
		t.Errorf("first divide line %q, want \"a4a5 36\"", lines[0])
	}
}

func TestPerftBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"perft", "-sfen", "not a position"},
		{"perft", "-fen", "x w"},
		{"perft", "-variant", "dai"},
		{"perft", "-rule", "Nonsense=1"},
		{"perft", "-rule", "ShoRoyalty=Capture"},
		{"perft", "-depth", "-1"},
		{"perft", "-sfen", "12/12/12/12/12/12/12/12/12/12/12/12 b - 1", "-fen", "x"},
		{"perft", "-moves", "a1a9"},
		{"perft", "-nosuchflag"},
		{"perft", "extra"},
		{"nosuchcommand"},
	} {
		code, out, errs := runCmd(args...)
		if code == 0 || errs == "" {
			t.Errorf("chuzero %v: exit %d, stdout %q, stderr %q; want an error", args, code, out, errs)
		}
	}
}

func TestHelp(t *testing.T) {
	code, out, _ := runCmd("help")
	if code != 0 || !strings.Contains(out, "perft") {
		t.Errorf("help: exit %d, %q", code, out)
	}
	code, _, errs := runCmd("perft", "-h")
	if code != 0 || !strings.Contains(errs, "-depth") {
		t.Errorf("perft -h: exit %d, %q", code, errs)
	}
}
