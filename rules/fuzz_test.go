package rules

import (
	"testing"
)

// Fuzz targets for every parser. Run one with e.g.
//
//	go test ./rules -run '^$' -fuzz FuzzParseSFEN -fuzztime 60s
//
// The seed corpus is the start positions, the perft positions and the
// notation examples; go test without -fuzz runs the seeds only.

var fuzzRules = map[VariantID]*Rules{
	Chu:   MustNew(DefaultConfig(Chu)),
	Sho:   MustNew(DefaultConfig(Sho)),
	Heian: MustNew(DefaultConfig(Heian)),
}

var hodgesChu = func() *Rules {
	c := DefaultConfig(Chu)
	c.PromotionRule = PromotionHodges
	return MustNew(c)
}()

func fuzzSeedPositions(f *testing.F) {
	for _, r := range fuzzRules {
		f.Add(uint8(r.v.ID), r.v.StartSFEN)
	}
	for _, file := range []string{"chu.tsv", "sho.tsv"} {
		v := Chu
		if file == "sho.tsv" {
			v = Sho
		}
		for _, row := range readPerftTable(f, file) {
			f.Add(uint8(v), row.sfen)
		}
	}
	f.Add(uint8(Chu), t1)
	f.Add(uint8(Chu), "11k/12/12/12/8n3/12/4o7/5B6/4r7/4G7/12/K11 b 8i 2")
	f.Add(uint8(Sho), "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w - - 0 1")
}

func fuzzRulesFor(v uint8) *Rules {
	switch VariantID(v % 4) {
	case Sho:
		return fuzzRules[Sho]
	case Heian:
		return fuzzRules[Heian]
	case 0:
		return hodgesChu
	}
	return fuzzRules[Chu]
}

// FuzzParseSFEN: no panic; whatever parses round-trips exactly.
func FuzzParseSFEN(f *testing.F) {
	fuzzSeedPositions(f)
	f.Fuzz(func(t *testing.T, v uint8, s string) {
		r := fuzzRulesFor(v)
		p, err := r.ParseSFEN(s)
		if err != nil {
			return
		}
		out := p.SFEN()
		q, err := r.ParseSFEN(out)
		if err != nil || !q.Equal(&p) || q.SFEN() != out {
			t.Fatalf("SFEN %q -> %q does not round-trip: %v", s, out, err)
		}
		p.GenerateMoves(nil)
	})
}

// FuzzParseFEN: no panic; whatever parses round-trips exactly.
func FuzzParseFEN(f *testing.F) {
	fuzzSeedPositions(f)
	f.Fuzz(func(t *testing.T, v uint8, s string) {
		r := fuzzRulesFor(v)
		p, err := r.ParseFEN(s)
		if err != nil {
			return
		}
		out := p.FEN()
		q, err := r.ParseFEN(out)
		if err != nil || !q.Equal(&p) || q.FEN() != out {
			t.Fatalf("FEN %q -> %q does not round-trip: %v", s, out, err)
		}
	})
}

func fuzzSeedMoves(f *testing.F) {
	for _, m := range []string{"f6g7,g7h8", "f6g7h8", "@@@@", "0000", "f6f6", "e8e9+", "e8e9=", "a1b1", "l12l11",
		"7g6f5e", "7g6f", "12l11l", "Lnx6fx5e", "Lnx!6f", "P-8h", "G6i-5h", "S-4c=", "--", "pass", "+DHx3c"} {
		f.Add(uint8(Chu), t1, m)
		f.Add(uint8(Sho), fuzzRules[Sho].v.StartSFEN, m)
		f.Add(uint8(Heian), fuzzRules[Heian].v.StartSFEN, m)
	}
}

// fuzzMoveParser checks that a notation's parser never panics, returns only
// legal moves, and that the formatter's output parses back.
func fuzzMoveParser(f *testing.F, parse func(*Position, string) (Move, error), format func(*Position, Move) string) {
	fuzzSeedMoves(f)
	f.Fuzz(func(t *testing.T, v uint8, sfen, s string) {
		r := fuzzRulesFor(v)
		p, err := r.ParseSFEN(sfen)
		if err != nil {
			p = r.StartPosition()
		}
		m, err := parse(&p, s)
		if err != nil {
			return
		}
		if !p.IsLegal(m) {
			t.Fatalf("%q parsed to the illegal move %v in %s", s, m, p.SFEN())
		}
		if back, err := parse(&p, format(&p, m)); err != nil || back != m {
			t.Fatalf("%q -> %q does not round-trip: %v", s, format(&p, m), err)
		}
	})
}

func FuzzParseMove(f *testing.F) {
	fuzzMoveParser(f, (*Position).ParseMove, (*Position).MoveString)
}

func FuzzParseUSI(f *testing.F) {
	fuzzMoveParser(f, (*Position).ParseUSI, (*Position).USI)
}

func FuzzParseHodges(f *testing.F) {
	fuzzMoveParser(f, (*Position).ParseHodges, (*Position).Hodges)
}

// FuzzParseConfig: no panic; whatever parses round-trips.
func FuzzParseConfig(f *testing.F) {
	for _, v := range Variants {
		f.Add(DefaultConfig(v).String())
	}
	f.Add("chu Repetition=Forbid MaxPlies=12")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseConfig(s)
		if err != nil {
			return
		}
		back, err := ParseConfig(c.String())
		if err != nil || back != c {
			t.Fatalf("config %q -> %q does not round-trip: %v", s, c.String(), err)
		}
	})
}
