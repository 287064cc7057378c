package cecp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"chuzero/rules"
)

// Diagram draws a position for a person: Sente at the bottom, uppercase;
// files numbered from the right and ranks lettered from the top (Hodges),
// machine coordinates (a..l, 1..12) on the other edges; promoted pieces
// with a "+".
func Diagram(pos *rules.Position) string {
	r := pos.Rules()
	files, ranks := r.Files(), r.Ranks()
	var b strings.Builder
	b.WriteString("    ")
	for f := 0; f < files; f++ {
		fmt.Fprintf(&b, "%3d", files-f)
	}
	b.WriteString("\n")
	for rank := ranks - 1; rank >= 0; rank-- {
		fmt.Fprintf(&b, " %2d ", rank+1)
		for f := 0; f < files; f++ {
			pc := pos.At(rules.Sq(f, rank))
			cell := " ."
			if pc.IsPiece() {
				cell = r.PieceString(pc)
				if len(cell) == 1 {
					cell = " " + cell
				}
			}
			b.WriteString(" " + cell)
		}
		fmt.Fprintf(&b, "  %c\n", 'a'+byte(ranks-1-rank))
	}
	b.WriteString("    ")
	for f := 0; f < files; f++ {
		fmt.Fprintf(&b, "%3c", 'a'+byte(f))
	}
	b.WriteString("\n")
	return b.String()
}

// humanHelp lists the terminal commands.
const humanHelp = `Type a move in Hodges notation (P-7g, Lnx7c-6c, Bx5c+, --) or machine notation
(f4f5, e8e9+, f6g7,g7h8, @@@@), or a command:
  moves    the legal moves          board   the board again
  go       the engine plays the side to move (switch sides)
  undo     take back your last move and the engine's reply
  new      a new game               sfen    the position as SFEN
  help     this text                quit    leave
`

// Human plays a game against a person on a terminal: the person has side
// (Sente moves first), the engine the other. It ends at "quit" or the end
// of in.
func (e *Engine) Human(ctx context.Context, in io.Reader, out io.Writer, side rules.Color) error {
	w := bufio.NewWriter(out)
	defer w.Flush()
	say := func(format string, args ...any) {
		fmt.Fprintf(w, format, args...)
		w.Flush()
	}
	e.engineSide = side.Other()
	r := e.rules
	say("chuzero: %s. You play %s (%s).\n%s\n", r.Variant().Title, side, map[rules.Color]string{rules.Sente: "uppercase, moving up", rules.Gote: "lowercase, moving down"}[side], humanHelp)
	show := func() {
		say("\n%s", Diagram(e.game.Position()))
		if res := e.game.Result(); res.Over() {
			say("Game over: %s. Type new for another game, quit to leave.\n", res)
		}
	}
	engineMoves := func() {
		moved := false
		defer func() {
			if moved {
				show()
			}
		}()
		for !e.game.Result().Over() && e.game.Position().SideToMove() == e.engineSide {
			pos := e.game.Position()
			b := e.budget()
			e.player.Budget = b
			label := b.String()
			if b.Time >= 24*time.Hour {
				label = fmt.Sprintf("%d simulations", b.Simulations)
			}
			say("thinking (%s)...\n", label)
			start := time.Now()
			res, err := e.player.Think(ctx, e.game)
			if err != nil {
				say("the engine failed: %v\n", err)
				return
			}
			m := res.Best
			say("%s plays %s (%s); value %+.2f for it, %d simulations in %.1fs\n", e.cfg.Name, pos.Hodges(m), pos.MoveString(m),
				res.RootValue, res.Simulations, time.Since(start).Seconds())
			e.game.Play(m)
			moved = true
		}
	}
	show()
	engineMoves()
	sc := bufio.NewScanner(in)
	for {
		say("%s> ", e.game.Position().SideToMove())
		if !sc.Scan() {
			say("\n")
			return sc.Err()
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		text := strings.TrimSpace(sc.Text())
		switch strings.ToLower(text) {
		case "":
		case "quit", "exit", "q":
			return nil
		case "help", "?", "h":
			say("%s", humanHelp)
		case "board", "b":
			show()
		case "sfen":
			say("%s\n", e.game.Position().SFEN())
		case "moves", "m":
			pos := e.game.Position()
			var names []string
			for _, m := range e.game.LegalMoves() {
				names = append(names, pos.Hodges(m))
			}
			say("%d legal moves: %s\n", len(names), strings.Join(names, " "))
		case "new":
			e.reset(e.variant)
			show()
			engineMoves()
		case "go", "switch":
			e.engineSide = e.game.Position().SideToMove()
			engineMoves()
		case "undo", "u":
			n := 2
			if e.game.Position().SideToMove() == e.engineSide || e.game.Result().Over() && e.game.Len()%2 == 1 {
				n = 1
			}
			if e.game.Len() < n {
				say("nothing to take back\n")
				continue
			}
			for range n {
				e.game.Undo()
			}
			e.engineSide = e.game.Position().SideToMove().Other()
			show()
		default:
			if e.game.Result().Over() {
				say("the game is over (%s); type new or quit\n", e.game.Result())
				continue
			}
			pos := e.game.Position()
			m, err := pos.ParseMove(text)
			if err != nil {
				var herr error
				if m, herr = pos.ParseHodges(text); herr != nil {
					if !looksLikeMove(text) {
						err = herr
					}
					say("not a legal move: %q (%v); type moves for the list, help for help\n", text, err)
					continue
				}
			}
			hodges, machine := pos.Hodges(m), pos.MoveString(m)
			if err := e.game.Play(m); err != nil {
				say("not a legal move here: %q (%v)\n", text, err)
				continue
			}
			say("you played %s (%s)\n", hodges, machine)
			engineMoves()
		}
	}
}
