package rules

import (
	"testing"
)

const noElephants = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

const t1 = "11k/12/12/12/7g4/6n5/5N6/12/12/12/12/K11 b - 1" // Lion f6, Gote Lion g7, Gote Gold h8

func TestParseMoveForms(t *testing.T) {
	chu := rulesWith(t, Chu)
	sho := rulesWith(t, Sho)
	tests := []struct {
		r     *Rules
		sfen  string
		parse string // machine, usi or hodges
		in    string
		want  string // machine notation, or "" for an error
	}{
		{chu, t1, "machine", "f6g7,g7h8", "f6g7,g7h8"},
		{chu, t1, "machine", "f6g7h8", "f6g7,g7h8"},
		{chu, t1, "machine", "f6g7,g7f6", "f6g7,g7f6"},
		{chu, t1, "machine", "f6e7,e7e8", "f6e8"},    // through an empty square: the jump
		{chu, t1, "machine", "f6e7,e7f6", "@@@@"},    // through an empty square and back: the pass
		{chu, t1, "machine", "f6f6", "@@@@"},         // FSF's pass
		{chu, t1, "machine", "0000", "@@@@"},         // null move
		{chu, t1, "machine", "@@@@", "@@@@"},         // XBoard's pass
		{chu, t1, "machine", "f6g7,h7h8", ""},        // legs do not join
		{chu, t1, "machine", "f6g7,g7h8+", ""},       // a Lion never promotes
		{chu, t1, "machine", "f6h9", ""},             // out of reach
		{chu, t1, "machine", "f6", ""},               // one square
		{chu, t1, "machine", "f6g7g8h9", ""},         // four squares
		{chu, t1, "machine", "m1m2", ""},             // no file m on 12x12
		{chu, t1, "machine", "a13a12", ""},           // no rank 13
		{chu, t1, "usi", "7g6f5e", "f6g7,g7h8"},      // USI double move
		{chu, t1, "usi", "7g6f7g", "f6g7,g7f6"},      // USI igui
		{chu, t1, "usi", "7g8f7g", "@@@@"},           // USI pass path through e7
		{chu, t1, "usi", "pass", "@@@@"},             // the word USI writes for a pass with no path
		{chu, t1, "usi", "7g6f", "f6g7"},             //
		{chu, t1, "usi", "12l11l", "a1b1"},           // two-digit files
		{chu, t1, "hodges", "Lnx6fx5e", "f6g7,g7h8"}, // double capture
		{chu, t1, "hodges", "Lnx!6f", "f6g7,g7f6"},   // igui
		{chu, t1, "hodges", "Lnx6f-6e", "f6g7,g7g8"}, // capture and continue
		{chu, t1, "hodges", "LNx6f", "f6g7"},         // case-insensitive abbreviation
		{chu, t1, "hodges", "--", "@@@@"},            // pass
		{chu, t1, "hodges", "pass", "@@@@"},          //
		{chu, t1, "hodges", "Qx6f", ""},              // no queen there
		{chu, t1, "hodges", "Zz-6f", ""},             // unknown piece
		{chu, "k11/12/3p5L2/2G9/4S7/12/12/12/12/12/12/11K b - 1", "hodges", "S-8d+", "e8e9+"},
		{chu, "k11/12/3p5L2/2G9/4S7/12/12/12/12/12/12/11K b - 1", "hodges", "S-8d=", "e8e9"},
		{chu, "k11/12/3p5L2/2G9/4S7/12/12/12/12/12/12/11K b - 1", "hodges", "S-8d", ""}, // must say + or =
		{chu, "k11/12/3p5L2/2G9/4S7/12/12/12/12/12/12/11K b - 1", "machine", "e8e9", "e8e9"},
		{chu, "k11/12/3p5L2/2G9/4S7/12/12/12/12/12/12/11K b - 1", "machine", "e8e9=", "e8e9"},
		{chu, "k11/12/3p5L2/2G9/4S7/12/12/12/12/12/12/11K b - 1", "machine", "c9c10+", ""},
		{sho, "k8/4P4/9/2N6/6L2/9/9/9/8K b - 1", "machine", "e8e9", "e8e9+"}, // forced promotion
		{sho, "k8/4P4/9/2N6/6L2/9/9/9/8K b - 1", "machine", "e8e9=", ""},
		{sho, "k8/4P4/9/2N6/6L2/9/9/9/8K b - 1", "hodges", "P-5a", "e8e9+"},
		{sho, sho.v.StartSFEN, "hodges", "P-7f", "c3c4"},
		{sho, noElephants, "hodges", "G-5h", ""}, // both golds can go there
		{sho, noElephants, "hodges", "G6i-5h", "d1e2"},
		{sho, sho.v.StartSFEN, "machine", "@@@@", ""}, // no pass in Sho
	}
	for _, tt := range tests {
		p := mustSFEN(t, tt.r, tt.sfen)
		var m Move
		var err error
		switch tt.parse {
		case "machine":
			m, err = p.ParseMove(tt.in)
		case "usi":
			m, err = p.ParseUSI(tt.in)
		case "hodges":
			m, err = p.ParseHodges(tt.in)
		}
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("%s %q in %s = %s, want an error", tt.parse, tt.in, tt.sfen, p.MoveString(m))
		case tt.want != "" && err != nil:
			t.Errorf("%s %q in %s: %v, want %s", tt.parse, tt.in, tt.sfen, err, tt.want)
		case tt.want != "" && p.MoveString(m) != tt.want:
			t.Errorf("%s %q in %s = %s, want %s", tt.parse, tt.in, tt.sfen, p.MoveString(m), tt.want)
		}
	}
}

func TestFormatMove(t *testing.T) {
	chu := rulesWith(t, Chu)
	p := mustSFEN(t, chu, t1)
	tests := []struct{ machine, usi, hodges string }{
		{"f6g7,g7h8", "7g6f5e", "Lnx6fx5e"},
		{"f6g7,g7f6", "7g6f7g", "Lnx!6f"},
		{"f6g7,g7g8", "7g6f6e", "Lnx6f-6e"},
		{"f6e8", "7g8e", "Ln-8e"},
		{"@@@@", "7g7f7g", "--"},
	}
	for _, tt := range tests {
		m, err := p.ParseMove(tt.machine)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.USI(m); got != tt.usi {
			t.Errorf("USI(%s) = %q, want %q", tt.machine, got, tt.usi)
		}
		if got := p.Hodges(m); got != tt.hodges {
			t.Errorf("Hodges(%s) = %q, want %q", tt.machine, got, tt.hodges)
		}
	}
	// the origin square appears only when needed
	sho := rulesWith(t, Sho)
	s := mustSFEN(t, sho, noElephants)
	m, _ := s.ParseMove("d1e2")
	if got := s.Hodges(m); got != "G6i-5h" {
		t.Errorf("Hodges(d1e2) = %q, want G6i-5h", got)
	}
	m, _ = s.ParseMove("c3c4")
	if got := s.Hodges(m); got != "P-7f" {
		t.Errorf("Hodges(c3c4) = %q, want P-7f", got)
	}
}

func TestPositionStringErrors(t *testing.T) {
	r := rulesWith(t, Chu)
	for _, s := range []string{
		"",
		"lfcsgekgscfl b - 1",
		"12/12/12/12/12/12/12/12/12/12/12/12 x - 1",
		"12/12/12/12/12/12/12/12/12/12/12/13 b - 1",
		"12/12/12/12/12/12/12/12/12/12/12/11 b - 1",
		"12/12/12/12/12/12/12/12/12/12/12/11+ b - 1",
		"12/12/12/12/12/12/12/12/12/12/12/11+K b - 1", // a King does not promote
		"12/12/12/12/12/12/12/12/12/12/12/11Z b - 1",
		"12/12/12/12/12/12/12/12/12/12/12/12 b 13a 1",
		"12/12/12/12/12/12/12/12/12/12/12/12 b - 0",
		"12/12/12/12/12/12/12/12/12/12/12/12 b - x",
		"12/12/12/12/12/12/12/12/12/12/12/12 b - 1 5c,-", // suppression needs Hodges
	} {
		if _, err := r.ParseSFEN(s); err == nil {
			t.Errorf("ParseSFEN(%q) succeeded, want an error", s)
		}
	}
	sho := rulesWith(t, Sho)
	if _, err := sho.ParseSFEN("9/9/9/9/9/9/9/9/9 b 5e 1"); err == nil {
		t.Errorf("a counter-strike square in Sho should be an error")
	}
}

func TestGameUndo(t *testing.T) {
	for _, v := range Variants {
		r := rulesWith(t, v)
		g := NewGame(r.StartPosition())
		start := *g.Position()
		var sfens []string
		for i := 0; i < 30 && !g.Result().Over(); i++ {
			sfens = append(sfens, g.Position().SFEN())
			g.Push(g.LegalMoves()[i%len(g.LegalMoves())])
		}
		for i := len(sfens) - 1; i >= 0; i-- {
			if _, ok := g.Undo(); !ok {
				t.Fatal("Undo failed")
			}
			if got := g.Position().SFEN(); got != sfens[i] {
				t.Fatalf("%s: after Undo %q, want %q", v, got, sfens[i])
			}
		}
		if _, ok := g.Undo(); ok {
			t.Errorf("Undo at the start succeeded")
		}
		if !g.Position().Equal(&start) || len(g.LegalMoves()) == 0 {
			t.Errorf("%s: game not restored", v)
		}
	}
}

func TestGameZeroAllocs(t *testing.T) {
	r := rulesWith(t, Chu)
	g := NewGame(r.StartPosition())
	// warm up the stacks
	for i := 0; i < 8; i++ {
		g.Push(g.LegalMoves()[0])
	}
	for i := 0; i < 8; i++ {
		g.Undo()
	}
	allocs := testing.AllocsPerRun(50, func() {
		for i := 0; i < 8; i++ {
			g.Push(g.LegalMoves()[0])
		}
		for i := 0; i < 8; i++ {
			g.Undo()
		}
	})
	if allocs != 0 {
		t.Errorf("Game Push/Undo allocates %.1f times per run", allocs)
	}
}

func TestHodgesName(t *testing.T) {
	chu, sho := rulesWith(t, Chu), rulesWith(t, Sho)
	tests := []struct {
		r    *Rules
		fen  string // FEN spelling of a Sente piece
		c    Color
		want string
	}{
		{chu, "N", Sente, "Ln"},
		{chu, "+D", Gote, "+DK"},
		{chu, "+H", Sente, "+DH"},
		{chu, "I", Gote, "GB"},
		{sho, "E", Sente, "DE"},
		{sho, "+P", Gote, "+P"},
	}
	for _, tt := range tests {
		pc := MakePiece(tt.r.KindByFEN(tt.fen), tt.c)
		if got := tt.r.HodgesName(pc); got != tt.want {
			t.Errorf("%s HodgesName(%s, %v) = %q, want %q", tt.r.Variant().Name, tt.fen, tt.c, got, tt.want)
		}
	}
	for _, pc := range []Piece{Empty, Wall, MakePiece(Kind(maxKinds-1), Sente)} {
		if got := chu.HodgesName(pc); got != "" {
			t.Errorf("HodgesName(%#x) = %q, want \"\"", pc, got)
		}
	}
}
