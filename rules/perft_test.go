package rules

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

type perftRow struct {
	sfen  string
	depth int
	nodes uint64
}

func readPerftTable(t testing.TB, name string) []perftRow {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "perft", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []perftRow
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if line == 1 || strings.TrimSpace(sc.Text()) == "" {
			continue // header
		}
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 3 {
			t.Fatalf("%s:%d: want 3 tab-separated fields", name, line)
		}
		d, err1 := strconv.Atoi(f[1])
		n, err2 := strconv.ParseUint(f[2], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s:%d: bad depth or count", name, line)
		}
		rows = append(rows, perftRow{f[0], d, n})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestPerftTables checks every row of the shared perft tables (lishogi's
// rules library for Chu, Fairy-Stockfish for Sho, the spec's figures for
// Heian). Rows above two million nodes are skipped with -short.
func TestPerftTables(t *testing.T) {
	tables := []struct {
		file  string
		v     VariantID
		rules []string
	}{
		{"chu.tsv", Chu, nil},
		{"chu-lishogi.tsv", Chu, []string{"LanceLastRankPromotion=On"}},
		{"sho.tsv", Sho, nil},
		{"heian.tsv", Heian, nil},
	}
	for _, tab := range tables {
		cfg := DefaultConfig(tab.v)
		for _, a := range tab.rules {
			if err := cfg.SetAssignment(a); err != nil {
				t.Fatal(err)
			}
		}
		r := MustNew(cfg)
		for i, row := range readPerftTable(t, tab.file) {
			t.Run(fmt.Sprintf("%s/%d", tab.file, i+1), func(t *testing.T) {
				if testing.Short() && row.nodes > 2_000_000 {
					t.Skipf("%d nodes; skipped with -short", row.nodes)
				}
				p, err := r.ParseSFEN(row.sfen)
				if err != nil {
					t.Fatal(err)
				}
				before := p
				if got := Perft(&p, row.depth); got != row.nodes {
					t.Errorf("Perft(%q, %d) = %d, want %d", row.sfen, row.depth, got, row.nodes)
				}
				if !p.Equal(&before) || p.Hash() != p.ComputeHash() {
					t.Errorf("position changed by perft")
				}
			})
		}
	}
}

// TestDivide compares per-root-move counts with the shared divide listings.
func TestDivide(t *testing.T) {
	files := map[string]string{
		"chu_start_d2.txt":          "",
		"chu_bridge_capture_d2.txt": "12/12/12/12/3n1H6/3sp7/5N6/5P6/1k5b4/12/12/12 b - 1",
		"chu_falcon_eagle_d2.txt":   "3l8/11p/10p1/3n5+D2/2i1f7/3N5G2/9+H2/2t2P1i4/2p3+D5/2+H9/12/12 b - 1",
	}
	r := MustNew(DefaultConfig(Chu))
	for file, sfen := range files {
		t.Run(file, func(t *testing.T) {
			p := r.StartPosition()
			if sfen != "" {
				var err error
				if p, err = r.ParseSFEN(sfen); err != nil {
					t.Fatal(err)
				}
			}
			data, err := os.ReadFile(filepath.Join("testdata", "perft", "divide", file))
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]uint64{}
			for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
				f := strings.Fields(line)
				n, _ := strconv.ParseUint(f[1], 10, 64)
				want[f[0]] = n
			}
			got := Divide(&p, 2)
			if len(got) != len(want) {
				t.Errorf("Divide has %d root moves, want %d", len(got), len(want))
			}
			for _, e := range got {
				if w, ok := want[e.Text]; !ok || w != e.Nodes {
					t.Errorf("Divide %s = %d, want %d (listed: %v)", e.Text, e.Nodes, w, ok)
				}
			}
		})
	}
}

// TestParallelDivide: the goroutines sharing the root moves count what
// Divide counts, at every depth and number of workers, and leave the
// position as it was.
func TestParallelDivide(t *testing.T) {
	r := MustNew(DefaultConfig(Sho))
	p := r.StartPosition()
	before := p.SFEN()
	for depth := 0; depth <= 3; depth++ {
		want := Perft(&p, depth)
		for _, workers := range []int{1, 3} {
			entries, total := ParallelDivide(&p, depth, workers)
			if total != want {
				t.Errorf("depth %d, %d workers: total %d, want %d", depth, workers, total, want)
			}
			if depth > 0 {
				serial := Divide(&p, depth)
				if len(entries) != len(serial) {
					t.Fatalf("depth %d: %d entries, want %d", depth, len(entries), len(serial))
				}
				for i := range serial {
					if entries[i] != serial[i] {
						t.Errorf("depth %d, %d workers: %+v, want %+v", depth, workers, entries[i], serial[i])
					}
				}
			}
		}
	}
	if p.SFEN() != before {
		t.Error("position changed by ParallelDivide")
	}
}
