package selfplay

import (
	"context"
	"fmt"

	"chuzero/encode"
	"chuzero/rules"
)

// Teacher plays the warm-start games of a run (Config.WarmStartGames): an
// opt-in bootstrap from a classical player (cmd/chuzero's is the arena's
// alpha-beta), whose moves become the policy targets and whose scores the
// root values of those games. It is knowledge beyond the rules, and every
// table of a run that used it says so.
type Teacher interface {
	// Name labels the teacher in the records ("ab-d2").
	Name() string
	// Open starts the teacher of one game under r, seeded by the game.
	Open(ctx context.Context, r *rules.Rules, seed uint64) (TeacherGame, error)
}

// TeacherGame is a teacher's player in one game.
type TeacherGame interface {
	// Move returns the move to play in g's current position and its value
	// for the side to move, in [-1, 1].
	Move(ctx context.Context, g *rules.Game) (rules.Move, float64, error)
	Close() error
}

// openTeacher makes game index a warm-start game when the run asks for
// one and has a teacher: the teacher plays every move (no search), nobody
// resigns, and the record names the teacher.
func (gm *game) openTeacher(ctx context.Context, index uint64) error {
	t := gm.r.Teacher
	if t == nil || index >= uint64(gm.cfg.WarmStartGames) {
		return nil
	}
	tg, err := t.Open(ctx, gm.r.rules, gm.seed)
	if err != nil {
		return fmt.Errorf("selfplay: warm-start teacher %s: %w", t.Name(), err)
	}
	gm.teacher = tg
	gm.rec.WarmStart, gm.rec.Evaluator, gm.rec.ResignAllowed = true, "warm start: "+t.Name(), false
	return nil
}

// teach plays the teacher's move in the current position and records it
// as a full search whose policy is that move alone and whose root value
// is the teacher's.
func (gm *game) teach(ctx context.Context) (rules.Move, float64, error) {
	m, v, err := gm.teacher.Move(ctx, gm.g)
	if err != nil {
		return rules.NoMove, 0, err
	}
	p := gm.g.Position()
	idx := gm.r.spec.Index(p, m)
	if idx < 0 {
		return rules.NoMove, 0, fmt.Errorf("selfplay: the teacher's move %s has no policy index", p.MoveString(m))
	}
	v = max(-1, min(1, v))
	pl := plyTrace{side: p.SideToMove(), value: float32(v), sample: -1,
		policy: []encode.PolicyEntry{{Index: uint32(idx), Prob: 1}}}
	gm.record(pl, true, true, 1, 0)
	if gm.r.OnMove != nil {
		gm.r.OnMove(true, 0)
	}
	return m, v, nil
}
