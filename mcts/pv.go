package mcts

import "chuzero/rules"

// PV returns the principal variation of the last search, at most max
// moves: from the root, the most visited child at each node while it has
// been visited. Call it between searches, not during one.
func (s *Search) PV(max int) []rules.Move {
	var pv []rules.Move
	if len(s.t.nodes) == 0 {
		return nil
	}
	i := s.t.root
	for len(pv) < max && s.t.nodes[i].state == expanded {
		kids := s.t.children(i)
		best, bestN := int32(-1), int32(0)
		for k := range kids {
			if kids[k].visits > bestN {
				best, bestN = s.t.nodes[i].first+int32(k), kids[k].visits
			}
		}
		if best < 0 {
			break
		}
		pv = append(pv, s.t.nodes[best].move)
		i = best
	}
	return pv
}
