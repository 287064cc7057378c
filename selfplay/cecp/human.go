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
	h := &human{e: e, w: bufio.NewWriter(out)}
	defer h.w.Flush()
	e.engineSide = side.Other()
	r := e.rules
	h.say("chuzero: %s. You play %s (%s).\n%s\n", r.Variant().Title, side, map[rules.Color]string{rules.Sente: "uppercase, moving up", rules.Gote: "lowercase, moving down"}[side], humanHelp)
	h.show()
	h.engineMoves(ctx)
	sc := bufio.NewScanner(in)
	for {
		h.say("%s> ", e.game.Position().SideToMove())
		if !sc.Scan() {
			h.say("\n")
			return sc.Err()
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if quit := h.command(ctx, strings.TrimSpace(sc.Text())); quit {
			return nil
		}
	}
}

// human is the terminal session of Human: the engine and the person's
// side of the conversation.
type human struct {
	e *Engine
	w *bufio.Writer
}

// say writes to the person at once.
func (h *human) say(format string, args ...any) {
	fmt.Fprintf(h.w, format, args...)
	h.w.Flush()
}

// show draws the board, and says so when the game is over.
func (h *human) show() {
	h.say("\n%s", Diagram(h.e.game.Position()))
	if res := h.e.game.Result(); res.Over() {
		h.say("Game over: %s. Type new for another game, quit to leave.\n", res)
	}
}

// engineMoves lets the engine play for as long as it is its turn, then
// shows the board if it moved.
func (h *human) engineMoves(ctx context.Context) {
	e := h.e
	moved := false
	defer func() {
		if moved {
			h.show()
		}
	}()
	for !e.game.Result().Over() && e.game.Position().SideToMove() == e.engineSide {
		pos := e.game.Position()
		b := e.budget()
		e.Player.Budget = b
		label := b.String()
		if b.Time >= 24*time.Hour {
			label = fmt.Sprintf("%d simulations", b.Simulations)
		}
		h.say("thinking (%s)...\n", label)
		start := time.Now()
		res, err := e.Player.Think(ctx, e.game)
		if err != nil {
			h.say("the engine failed: %v\n", err)
			return
		}
		m := res.Best
		h.say("%s plays %s (%s); value %+.2f for it, %d simulations in %.1fs\n", e.Cfg.Name, pos.Hodges(m), pos.MoveString(m),
			res.RootValue, res.Simulations, time.Since(start).Seconds())
		e.game.Play(m)
		moved = true
	}
}

// command runs one line the person typed; it reports "quit".
func (h *human) command(ctx context.Context, text string) (quit bool) {
	e := h.e
	switch strings.ToLower(text) {
	case "":
	case "quit", "exit", "q":
		return true
	case "help", "?", "h":
		h.say("%s", humanHelp)
	case "board", "b":
		h.show()
	case "sfen":
		h.say("%s\n", e.game.Position().SFEN())
	case "moves", "m":
		h.listMoves()
	case "new":
		e.reset(e.variant)
		h.show()
		h.engineMoves(ctx)
	case "go", "switch":
		e.engineSide = e.game.Position().SideToMove()
		h.engineMoves(ctx)
	case "undo", "u":
		h.undo()
	default:
		h.play(ctx, text)
	}
	return false
}

// listMoves lists the legal moves in Hodges notation.
func (h *human) listMoves() {
	pos := h.e.game.Position()
	var names []string
	for _, m := range h.e.game.LegalMoves() {
		names = append(names, pos.Hodges(m))
	}
	h.say("%d legal moves: %s\n", len(names), strings.Join(names, " "))
}

// undo takes back the person's last move and the engine's reply (only
// the person's move if the engine has not replied), leaving the person to
// move.
func (h *human) undo() {
	g := h.e.game
	n := 2
	if g.Position().SideToMove() == h.e.engineSide || g.Result().Over() && g.Len()%2 == 1 {
		n = 1
	}
	if g.Len() < n {
		h.say("nothing to take back\n")
		return
	}
	for range n {
		g.Undo()
	}
	h.e.engineSide = g.Position().SideToMove().Other()
	h.show()
}

// play plays the person's move text (Hodges or machine notation), then
// the engine's reply.
func (h *human) play(ctx context.Context, text string) {
	g := h.e.game
	if g.Result().Over() {
		h.say("the game is over (%s); type new or quit\n", g.Result())
		return
	}
	pos := g.Position()
	m, err := pos.ParseMove(text)
	if err != nil {
		var herr error
		if m, herr = pos.ParseHodges(text); herr != nil {
			if !looksLikeMove(text) {
				err = herr
			}
			h.say("not a legal move: %q (%v); type moves for the list, help for help\n", text, err)
			return
		}
	}
	hodges, machine := pos.Hodges(m), pos.MoveString(m)
	if err := g.Play(m); err != nil {
		h.say("not a legal move here: %q (%v)\n", text, err)
		return
	}
	h.say("you played %s (%s)\n", hodges, machine)
	h.engineMoves(ctx)
}
