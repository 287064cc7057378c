package rules_test

import (
	"fmt"

	"chuzero/rules"
)

func Example() {
	r, err := rules.New(rules.DefaultConfig(rules.Chu))
	if err != nil {
		panic(err)
	}
	g := rules.NewGame(r.StartPosition())
	fmt.Println(len(g.LegalMoves()), "legal moves")
	if _, err := g.PlayString("f3f5"); err != nil { // the Lion jumps
		panic(err)
	}
	fmt.Println(g.Position().SFEN())
	fmt.Println(g.Result())
	// Output:
	// 36 legal moves
	// lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I1N2I3/PPPPPPPPPPPP/MVRHD1QDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w - 2
	// ongoing
}

func ExamplePerft() {
	r := rules.MustNew(rules.DefaultConfig(rules.Sho))
	p := r.StartPosition()
	fmt.Println(rules.Perft(&p, 3))
	// Output: 17368
}

func ExamplePosition_Hodges() {
	r := rules.MustNew(rules.DefaultConfig(rules.Chu))
	p, _ := r.ParseSFEN("11k/12/12/12/7g4/6n5/5N6/12/12/12/12/K11 b - 1")
	m, _ := p.ParseMove("f6g7,g7h8")
	fmt.Println(p.Hodges(m), p.USI(m))
	// Output: Lnx6fx5e 7g6f5e
}
