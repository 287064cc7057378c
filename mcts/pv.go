package mcts

import "chuzero/rules"

// PV returns the principal variation of the last search, at most max
// moves: from the root, the most visited child at each node while it has
// been visited. Call it between searches, not during one.
func (s *Search) PV(max int) []rules.Move {
	if s.t.nodes.size == 0 {
		return nil
	}
	return s.line(s.t.root, nil, max)
}

// Line returns the line of the last search that starts with root move m:
// m, then the most visited child at each node, at most max moves (nil if
// m is not a root move of the tree). Call it between searches.
func (s *Search) Line(m rules.Move, max int) []rules.Move {
	if s.t.nodes.size == 0 || max < 1 {
		return nil
	}
	c := s.t.child(s.t.root, m)
	if c < 0 {
		return nil
	}
	return s.line(c, []rules.Move{m}, max)
}

// line appends to pv the most visited path below node i.
func (s *Search) line(i int32, pv []rules.Move, max int) []rules.Move {
	for len(pv) < max && s.t.nodes.at(i).state == expanded {
		kids := s.t.children(i)
		best, bestN := int32(-1), int32(0)
		for k := range kids {
			if kids[k].visits > bestN {
				best, bestN = s.t.nodes.at(i).first+int32(k), kids[k].visits
			}
		}
		if best < 0 {
			break
		}
		pv = append(pv, s.t.nodes.at(best).move)
		i = best
	}
	return pv
}
