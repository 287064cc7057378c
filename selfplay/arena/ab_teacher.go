package arena

import (
	"context"

	"chuzero/rules"
	"chuzero/selfplay"
)

// Teacher returns the alpha-beta player as a self-play teacher: the
// opt-in warm start of selfplay.Config.WarmStartGames, whose games it
// plays (its moves the policy targets, its scores, mapped to [-1, 1] as
// Reply.Value, the root values).
func (a AlphaBeta) Teacher() selfplay.Teacher { return abTeacher{a} }

type abTeacher struct{ a AlphaBeta }

func (t abTeacher) Name() string { return t.a.Name() }

func (t abTeacher) Open(ctx context.Context, r *rules.Rules, seed uint64) (selfplay.TeacherGame, error) {
	p, err := t.a.Open(ctx, r, seed)
	if err != nil {
		return nil, err
	}
	return abTeacherGame{p}, nil
}

type abTeacherGame struct{ p Player }

func (g abTeacherGame) Move(ctx context.Context, game *rules.Game) (rules.Move, float64, error) {
	rep, err := g.p.Move(ctx, game)
	return rep.Move, rep.Value, err
}

func (g abTeacherGame) Close() error { return g.p.Close() }
