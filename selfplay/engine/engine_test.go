package engine

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"chuzero/mcts"
	"chuzero/rules"
)

func TestCentipawns(t *testing.T) {
	for _, c := range []struct {
		v  float64
		cp int
	}{{0, 0}, {0.5, 220}, {-0.5, -220}, {1, 3000}, {-1, -3000}, {2, 3000}, {math.NaN(), 0}, {math.Tanh(0.25), 100}} {
		if got := Centipawns(c.v); got != c.cp {
			t.Errorf("Centipawns(%v) = %d, want %d", c.v, got, c.cp)
		}
	}
}

// royalHangs: the Gote king on b12 stands next to the Sente gold on b11,
// unprotected; taking it ends the game.
const royalHangs = "1k10/1G10/12/12/8p3/12/12/12/8P3/12/12/11K b - 1"

// A line that ends the game, with the search sure of it, is a mate in its
// length; a line that does not end it is none, whatever its value.
func TestMateLines(t *testing.T) {
	r := rules.MustNew(rules.DefaultConfig(rules.Chu))
	for _, c := range []struct {
		name, sfen string
		mate       bool
	}{{"royal hangs", royalHangs, true}, {"start", "", false}} {
		g := rules.NewGame(r.StartPosition())
		if c.sfen != "" {
			var err error
			if g, err = r.NewGameFromSFEN(c.sfen); err != nil {
				t.Fatal(err)
			}
		}
		s, err := mcts.New(mcts.DefaultConfig(), mcts.Uniform{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Run(context.Background(), g, mcts.Options{Simulations: 200})
		if err != nil {
			t.Fatal(err)
		}
		before := g.Position().SFEN()
		for _, multiPV := range []int{1, 3} {
			lines := TopLines(s, res, g, multiPV)
			if len(lines) != multiPV {
				t.Fatalf("%s: %d lines for MultiPV %d", c.name, len(lines), multiPV)
			}
			if got := lines[0].Mate; (got == 1) != c.mate || (!c.mate && got != 0) {
				t.Errorf("%s, MultiPV %d: mate %d (value %.3f, line %d moves)", c.name, multiPV, got, lines[0].Value, len(lines[0].Moves))
			}
		}
		if g.Position().SFEN() != before {
			t.Errorf("%s: TopLines left the game changed", c.name)
		}
	}
}

// Rules options from the GUI: matched without regard to case, kept by
// rules' name, MaxPlies 0 back to the variant's, unknown ones refused.
func TestSetRulesOption(t *testing.T) {
	c, err := NewCore("test", Config{Variants: []rules.VariantID{rules.Chu, rules.Sho}, Rules: []string{"MaxPlies=300"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range [][2]string{{"promotionrule", "Hodges"}, {"MaxPlies", "400"}} {
		if err := c.SetRulesOption(o[0], o[1]); err != nil {
			t.Fatalf("%s=%s: %v", o[0], o[1], err)
		}
	}
	rc, err := c.RulesConfig(rules.Chu, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := rc.Value("PromotionRule"); v != "Hodges" {
		t.Errorf("PromotionRule %s", v)
	}
	if v, _ := rc.Value("MaxPlies"); v != "400" {
		t.Errorf("MaxPlies %s", v)
	}
	c.SetRulesOption("maxplies", "0")
	if rc, _ := c.RulesConfig(rules.Chu, nil); func() string { v, _ := rc.Value("MaxPlies"); return v }() != "300" {
		t.Error("MaxPlies 0 did not go back to the configured 300")
	}
	for _, bad := range [][2]string{{"NoSuch", "1"}, {"PromotionRule", "Nope"}, {"", ""}} {
		if err := c.SetRulesOption(bad[0], bad[1]); !errors.Is(err, ErrUnknownOption) {
			t.Errorf("%q=%q: %v", bad[0], bad[1], err)
		}
	}
	if _, err := NewCore("test", Config{Rules: []string{"Nonsense=1"}}); err == nil || !strings.Contains(err.Error(), "Nonsense") {
		t.Errorf("a bad configured option: %v", err)
	}
}

// TestSetQuiescence: the blend is set within [0, 1] and the next search
// uses it (a fresh tree: the old one's values had the old blend).
func TestSetQuiescence(t *testing.T) {
	c, err := NewCore("test", Config{Variants: []rules.VariantID{rules.Sho}})
	if err != nil {
		t.Fatal(err)
	}
	old := c.Player
	if err := c.SetQuiescence(0.25); err != nil {
		t.Fatal(err)
	}
	if c.Quiescence() != 0.25 || c.Player == old || c.Player.Search.Config().Quiescence != 0.25 {
		t.Errorf("quiescence %v, search's %v, new tree %v", c.Quiescence(), c.Player.Search.Config().Quiescence, c.Player != old)
	}
	for _, bad := range []float64{-0.1, 1.01} {
		if c.SetQuiescence(bad) == nil {
			t.Errorf("SetQuiescence(%v) accepted", bad)
		}
	}
}
