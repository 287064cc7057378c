// Package rules is chuzero's rules core: Chu Shogi, Sho Shogi and Heian Dai
// Shogi as data on one move generator, with positions, moves, SFEN/FEN,
// move notations, game results and perft. It imports nothing of ours.
//
// The rules are those of ../shared/rules/ (chu-shogi.md, sho-shogi.md,
// heian-dai-shogi.md, decisions.md). Every option of the index in
// decisions.md is a field of Config; DefaultConfig gives the defaults.
//
// # Usage
//
//	r, err := rules.New(rules.DefaultConfig(rules.Chu))
//	g := rules.NewGame(r.StartPosition())
//	for !g.Result().Over() {
//		m := g.LegalMoves()[0]          // choose a move
//		fmt.Println(g.Position().MoveString(m))
//		g.Play(m)
//	}
//	fmt.Println(g.Result())            // e.g. "sente wins (bare king)"
//
// # Design
//
// A Variant is data: board size, zone depth, a piece table whose rows give
// per-direction ranges (step, limited or unlimited slide, jump to the
// second square, lion power along a ray), fixed leaps, full lion power, the
// promoted form and the royal flag, plus the rule mechanisms the game
// switches on (check rule, promotion mode, forced promotion, bare-King rule,
// two-bare-royals draw, repetition rule, move cap). New compiles a Variant
// and a Config into Rules: per-piece move lists for both colors, zones and
// the reverse tables attack detection uses. A fourth shogi variant is a new
// Variant value and a test file.
//
// Position is a padded mailbox (fixed arrays, cheap to copy) with the side
// to move, the counter-strike square, the Hodges suppression squares, the
// move number and an incrementally updated Zobrist key. Move is a uint32
// (see its bit layout). GenerateMoves appends legal moves to a caller's
// slice without allocating; Make/Unmake play and take back a move. Game
// owns the history and evaluates the result after every move.
//
// # Decisions where the specification is silent
//
//   - Moves are canonical by default: one move per (origin, destination,
//     first-leg square, promotion); every pass is the single move Pass.
//     Under LionMoveEnumeration=Paths each two-step path is a move, the pass
//     paths included, to reproduce lishogi's counts.
//   - A two-leg move never promotes (only unpromotable pieces make them).
//   - A dead piece is one that could not move from its square even on an
//     empty board (an unpromoted Pawn or Lance on its last rank, a Knight on
//     its last two). The bare-King rules and the two-bare-royals draw ignore
//     dead pieces; forced promotion (Sho, Heian) applies exactly when a move
//     that may promote would leave such a piece.
//   - Check rule (Sho's PseudoRoyal, Heian): judged after the move: if the
//     mover then has exactly one royal, it must not be attacked. Promoting
//     the Drunk Elephant to a second royal therefore lifts the rule at once,
//     as in Fairy-Stockfish.
//   - JCSA bare King: "D has a royal" means at least one (lishogi asks for
//     exactly one, which would exempt a side with King and Prince).
//   - Bare King, Simple rule (Heian; Chu option): judged right after a
//     move, so not on a loaded start position; both sides bare is a draw
//     under it in Chu as in Heian.
//   - Counter-strike under Okazaki: the Lion is protected if, with the
//     capturer lifted from its origin and placed on the Lion's square and
//     the move's other victim removed, a piece of the Lion's side attacks
//     that square.
//   - Hodges promotion rule: a promotable piece that enters the zone from
//     outside without promoting (capture or not) may promote on its side's
//     next move only by a capture; the suppression lasts exactly one move of
//     that side and is part of the position (SFEN fifth field).
//   - Repetition compares the Zobrist key (board, side, counter-strike
//     square, suppression squares); only positions since the last capture
//     or promotion are searched, as earlier ones cannot recur.
//     Repetition=Forbid filters Game.LegalMoves; Perft ignores it, as it
//     ignores every game-end rule.
//   - MaxPlies counts plies from the variant's start: SFEN move number - 1.
//   - SFEN's move number is lishogi's (1 + plies); FEN's is chess-style
//     (full moves), so SFEN -> FEN -> SFEN is exact whenever the SFEN number
//     has the parity of its side to move.
//   - USI writes the pass as a path through the first empty lion-direction
//     square of the first lion-power piece in board-scan order (§11.3).
//   - Hodges writes "+" or "=" only when both forms of the move are legal;
//     a forced promotion has no suffix; without a suffix, a move with both
//     forms legal is ambiguous and rejected.
package rules
