// Package encode is the tensor contract between the rules and the network:
// input planes, the policy index of every move, left-right mirroring, and
// the versioned training-sample format. It uses plain []float32 and does not
// import Gorgonia. Its files are written and opened as every run file is
// (chuzero/checkpoints/atomicfile); the request an evaluator answers is
// chuzero/mcts/eval's, and the duration type of config files is
// chuzero/checkpoints/jsondur's.
//
// # Usage
//
//	spec := encode.MustSpec(rules.Chu, encode.DefaultOptions())
//	planes := make([]float32, spec.PlaneSize())
//	var hist [encode.MaxHistory]rules.Move
//	st := encode.StateOf(game, hist[:])
//	spec.Encode(&st, planes)                       // C x H x W, side to move's view
//	idx, _ := spec.LegalIndices(game.Position(), game.LegalMoves(), nil) // sparse legal mask
//	m, _ := spec.Move(game.Position(), int(idx[0]))  // index -> move
//
// # Input planes
//
// C x H x W float32, always from the point of view of the side to move:
// for Gote the board is rotated 180 degrees, so the net always sees its own
// pieces moving up (row 0 = the mover's back rank). In order:
//
//	planes                        count            content
//	own pieces                    K                1 where the mover has a piece of kind k (kinds as in the
//	                                               variant's piece table; promoted kinds are separate rows)
//	opponent pieces               K                the same for the opponent
//	counter-strike square         1 (Chu)          1 on the square where the previous ply's non-Lion took a Lion
//	Hodges suppression squares    2 (Chu)          own, opponent (PromotionRule=Hodges)
//	repetitions                   3                constant 1 on plane 0, 1 or 2 for a position seen once,
//	                                               twice, three or more times
//	progress                      1                constant plies / MaxPlies
//	Gote to move                  1                constant 1 when Gote moves
//	rules options                 one per value    constant 1 when an option that changes play has that
//	                                               non-default value (all options but LionMoveEnumeration
//	                                               and MaxPlies)
//	history                       2 per ply        for the last HistoryPlies moves (most recent first):
//	                                               origin; destination and first-leg square (a pass marks
//	                                               nothing)
//
// With the default four plies of history: Chu 105 planes (K = 39), Sho 46
// (K = 16), Heian 65 (K = 24). Spec.PlaneNames names each plane;
// testdata/planes_chu.golden shows a dump.
//
// # Policy
//
// See policy.go: move-type planes over the origin square (8 directions x
// distance, 8 knight leaps, their promoting twins, 64 lion double moves as
// first step x second step), plus one pass index. Sizes: Chu 36865, Sho
// 11664, Heian 35152. Index is a bijection on legal moves (property-tested
// on thousands of random positions of every variant, the Paths enumeration
// included); Move decodes an index; MirrorIndex permutes indices for a
// left-right reflection, which TestMirrorInvariance shows the rules respect.
//
// # Sample files
//
// A sample file (extension .samples) is a header, chunks of records (one
// chunk per game as written by self-play) and a trailer; see samplefile.go
// for the byte layout. Every chunk and the header and trailer carry a
// CRC-32C; the reader reports damage as a *CorruptError with file, offset
// and chunk, and never skips anything. Writers write to a temporary file,
// fsync, rename and fsync the directory (atomicfile.Writer).
//
// A record (little-endian), version 2 (RecordVersion; the file format in
// the header is the version of every record in the file):
//
//	u32   length of the rest of the record
//	u8    record version (2; 1 for the older records described below)
//	u8    variant (1 chu, 2 sho, 3 heian)
//	[20]  rules config (rules.Config binary form: variant, 13 option bytes, 2 zero bytes, u32 MaxPlies)
//	u64   game id
//	u32   ply: plies played before the position (SFEN move number - 1)
//	u8    flags: bit 0 = the move had a full search (its policy is a training target),
//	        bit 1 = truncated: the self-play ply cap stopped the game (outcome is draw, use the end value),
//	        bit 2 = auxiliary targets follow the end value
//	u8    repetitions: occurrences of the position so far (1 = first)
//	f32   root value: the search's value of the position for the side to move, in [-1, 1]
//	u32   root visits
//	u8    outcome for the side to move: 0 win, 1 draw, 2 loss (the value target)
//	u8    n: history moves (at most 8), then n x 4 bytes, oldest first:
//	        u8 from, u8 first-leg square (255 none), u8 to (dense rank*W+file, absolute), u8 flags
//	        (bit 0 promotes, bit 1 pass; squares 255 for a pass)
//	u16   SFEN length, then the SFEN (canonical, lishogi convention)
//	u32   m: policy entries, then m x (u32 policy index, f32 probability), over legal moves
//	f32   end value: for a truncated game, the value target standing in for the result
//	        (the final search's root value, for this side to move), in [-1, 1]; else 0
//	with flag bit 2, the auxiliary targets (AuxTargets):
//	u32   r: reply policy entries, then r x (u32 index, f32 probability): the next ply's
//	        full-search policy in the next position's own frame (r = 0: no full search next)
//	f32   material at the game's end, side to move minus opponent, divided by one side's
//	        starting material without royals, clamped to [-1, 1]
//	f32   the same AuxAheadPlies (16) plies ahead, or at the end if sooner
//	u16   o: ownership squares (the board's H*W), then o x i8 in dense absolute order
//	        (rank*W+file): +1 the side to move holds the square at the game's end, -1 the
//	        opponent, 0 empty; Spec.EncodeOwnership puts it in the planes' frame
//	3xf32 short-term values over ShortValueHorizons (6, 16, 50 plies): the average of the
//	        root values k plies ahead (this side's view) with weights (1-1/h)^k normalised
//	        to sum 1, the result (end value if truncated) standing for plies past the end
//
// Version 1 records end after the policy entries; their flags have only
// bit 0, and they read with Truncated false, EndValue 0 and Aux nil.
//
// testdata/record.golden pins one record byte for byte, record_v1.golden
// a version 1 record; testdata/v1.samples is a file of the version 1
// writer.
package encode
