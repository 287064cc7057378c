package web

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"chuzero/checkpoints"
	"chuzero/mcts"
	"chuzero/mcts/eval"
	"chuzero/mcts/qsearch"
	"chuzero/rules"
)

// Networks evaluates positions with the run's checkpoints. The web
// package never loads a network: cmd/chuzero implements this with the
// model package. The checkpoint is one of the run's listing (the store's
// and the pinned copies), never a name from a request.
type Networks interface {
	// Evaluate fills req.Priors (one per req.Moves, in order) and req.WDL
	// (for the side to move) with the network of the checkpoint.
	Evaluate(ctx context.Context, ckpt checkpoints.Entry, req *eval.Request) error
}

// topMoves is how many of the network's moves the position page lists.
const topMoves = 16

// PositionView is a position with the network's view of it.
type PositionView struct {
	SFEN        string         `json:"sfen"` // canonical
	Side        string         `json:"side"` // to move
	Board       Board          `json:"board"`
	Squares     []string       `json:"squares"`
	Legal       int            `json:"legal"`                // legal moves
	Result      string         `json:"result,omitempty"`     // the game is over: why
	Checkpoints []networkEntry `json:"checkpoints"`          // what the select box offers
	Network     *NetworkView   `json:"network,omitempty"`    // nil without a network
	NoNetwork   string         `json:"no_network,omitempty"` // why there is none
	// Quiescence is the capture search's view of the position (absent
	// when the game is over).
	Quiescence *QuiescenceView `json:"quiescence,omitempty"`
}

// QuiescenceView is what the capture search (mcts/qsearch) makes of a
// position, the material the exchanges on the board resolve to, which
// the run's searches blend into every leaf's value.
type QuiescenceView struct {
	Static float64 `json:"static"` // the material balance as it stands, in piece-value points, for the side to move
	Score  float64 `json:"score"`  // resolved by the capture search (±1e9 a mate)
	Value  float64 `json:"value"`  // tanh(scale·score/army), in [-1, 1]: the blend's term
	Nodes  int64   `json:"nodes"`  // the search's nodes
}

// NetworkView is a network's output for a position.
type NetworkView struct {
	Checkpoint string     `json:"checkpoint"`
	Step       int64      `json:"step"`
	WDL        [3]float32 `json:"wdl"`   // win, draw, loss for the side to move
	Value      float32    `json:"value"` // win - loss, for the side to move
	Moves      []Prior    `json:"moves"` // the most probable moves, best first
	// Lambda is the quiescence blend the run's self-play gives this
	// network (selfplay.quiescence at its step), Leaf the value its
	// search gives the position: (1-λ)·value + λ·quiescence value.
	Lambda float64 `json:"lambda"`
	Leaf   float64 `json:"leaf"`
}

// Prior is one move with the network's probability.
type Prior struct {
	MoveView
	P float32 `json:"p"`
}

// errBadRequest marks a request the page cannot answer: a bad SFEN, an
// unknown checkpoint; errNoRules a run whose config.json does not say
// which game it plays.
var (
	errBadRequest = errors.New("bad request")
	errNoRules    = errors.New("no rules")
)

// position builds the position page's data for an SFEN ("" or "startpos":
// the variant's start) and a checkpoint name ("": the newest).
func (s *Server) position(ctx context.Context, sfen, ckpt string) (*PositionView, error) {
	cfg := readRunConfig(s.run)
	if cfg.err != nil {
		return nil, fmt.Errorf("%w: %v", errNoRules, cfg.err)
	}
	r, err := rules.New(cfg.rules)
	if err != nil {
		return nil, err
	}
	g := rules.NewGame(r.StartPosition())
	if sfen = strings.TrimSpace(sfen); sfen != "" && sfen != "startpos" {
		if g, err = r.NewGameFromSFEN(sfen); err != nil {
			return nil, fmt.Errorf("%w: %v", errBadRequest, err)
		}
	}
	p := g.Position()
	v := &PositionView{SFEN: p.SFEN(), Side: p.SideToMove().String(), Board: newBoard(r), Squares: squares(p),
		Legal: len(g.LegalMoves()), Checkpoints: s.nets.list()}
	if res := g.Result(); res.Over() {
		v.Result = res.String()
	} else {
		v.Quiescence = quiescence(g, cfg.self.Search)
	}
	e, ok := findNetwork(v.Checkpoints, ckpt)
	switch {
	case !ok && ckpt != "":
		return nil, fmt.Errorf("%w: no checkpoint %q in this run", errBadRequest, ckpt)
	case s.cfg.Networks == nil:
		v.NoNetwork = "this server has no networks"
	case !ok:
		v.NoNetwork = "the run has no checkpoint yet"
	case v.Legal == 0:
		v.NoNetwork = "no legal move: the game is over"
	default:
		if v.Network, err = s.evaluate(ctx, g, e); err != nil {
			return nil, err
		}
		n := v.Network
		n.Lambda = cfg.self.QuiescenceAt(e.Step)
		n.Leaf = mcts.Blend(float64(n.Value), v.Quiescence.Value, n.Lambda)
	}
	return v, nil
}

// quiescence runs the capture search of the run's search settings on
// g's position.
func quiescence(g *rules.Game, sc mcts.Config) *QuiescenceView {
	q := sc.CaptureSearch(g.Rules())
	score := q.Value(g)
	v := &QuiescenceView{Static: float64(q.Table.Balance(g.Position())) / 100, Score: float64(score) / 100,
		Value: q.Table.Scaled(score, sc.QuiescenceScale), Nodes: q.Nodes}
	if qsearch.IsMate(score) {
		v.Score = math.Copysign(1e9, float64(score))
	}
	return v
}

// evaluate asks the network of checkpoint e about the position of g.
func (s *Server) evaluate(ctx context.Context, g *rules.Game, e checkpoints.Entry) (*NetworkView, error) {
	moves := g.LegalMoves()
	var req eval.Request
	req.Set(g, moves)
	if err := s.cfg.Networks.Evaluate(ctx, e, &req); err != nil {
		return nil, fmt.Errorf("web: checkpoint %s: %w", e.Name, err)
	}
	n := &NetworkView{Checkpoint: e.Name, Step: e.Step, WDL: req.WDL, Value: req.WDL[0] - req.WDL[2]}
	order := make([]int, len(moves))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return req.Priors[order[i]] > req.Priors[order[j]] })
	p := g.Position()
	for _, i := range order[:min(topMoves, len(order))] {
		n.Moves = append(n.Moves, Prior{MoveView: *moveView(p, moves[i], p.MoveString(moves[i])), P: req.Priors[i]})
	}
	return n, nil
}
