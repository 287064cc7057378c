package web

import (
	"net/url"
	"sort"
	"strconv"
)

// Page sizes of the games list.
const (
	defaultLimit = 100
	maxLimit     = 1000
)

// GamesFilter selects games: each field set must match ("" matches all).
type GamesFilter struct {
	Kind   string `json:"kind"`
	Result string `json:"result"`
	Reason string `json:"reason"`
	Match  string `json:"match"`
}

// GamesView is one page of the games list, newest first.
type GamesView struct {
	Filter   GamesFilter `json:"filter"`
	Total    int         `json:"total"`   // games in the run
	Matched  int         `json:"matched"` // games the filter selects
	Offset   int         `json:"offset"`
	Limit    int         `json:"limit"`
	Games    []*GameInfo `json:"games"`
	Kinds    []Count     `json:"kinds"` // the values to filter by, with their games
	Results  []Count     `json:"results"`
	Reasons  []Count     `json:"reasons"`
	Warnings []string    `json:"warnings,omitempty"` // damaged games files: lines skipped
}

// Count is a value and how many games have it.
type Count struct {
	Value string `json:"value"`
	N     int    `json:"n"`
}

// parseGamesQuery reads the filter and page of a games request (bad
// numbers fall back to the defaults).
func parseGamesQuery(q url.Values) (GamesFilter, int, int) {
	f := GamesFilter{Kind: q.Get("kind"), Result: q.Get("result"), Reason: q.Get("reason"), Match: q.Get("match")}
	offset, _ := strconv.Atoi(q.Get("offset"))
	limit, err := strconv.Atoi(q.Get("limit"))
	if err != nil || limit <= 0 {
		limit = defaultLimit
	}
	return f, max(offset, 0), min(limit, maxLimit)
}

func (f GamesFilter) match(g *GameInfo) bool {
	return (f.Kind == "" || g.Kind == f.Kind) && (f.Result == "" || g.Result == f.Result) &&
		(f.Reason == "" || g.Reason == f.Reason) && (f.Match == "" || g.Match == f.Match)
}

// gamesView filters the games (newest first) and cuts one page.
func gamesView(games []*GameInfo, warn []string, f GamesFilter, offset, limit int) *GamesView {
	v := &GamesView{Filter: f, Total: len(games), Offset: offset, Limit: limit, Games: []*GameInfo{}, Warnings: warn}
	kinds, results, reasons := map[string]int{}, map[string]int{}, map[string]int{}
	for _, g := range games {
		kinds[g.Kind]++
		results[g.Result]++
		reasons[g.Reason]++
		if !f.match(g) {
			continue
		}
		if v.Matched >= offset && len(v.Games) < limit {
			v.Games = append(v.Games, g)
		}
		v.Matched++
	}
	v.Kinds, v.Results, v.Reasons = counts(kinds), counts(results), counts(reasons)
	return v
}

// counts lists a tally, most games first.
func counts(m map[string]int) []Count {
	out := make([]Count, 0, len(m))
	for k, n := range m {
		out = append(out, Count{k, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Value < out[j].Value
	})
	return out
}

// pageLinks are the query strings of the previous and next pages ("":
// none).
func (v *GamesView) pageLinks() (prev, next string) {
	q := func(offset int) string {
		u := url.Values{}
		for k, val := range map[string]string{"kind": v.Filter.Kind, "result": v.Filter.Result, "reason": v.Filter.Reason, "match": v.Filter.Match} {
			if val != "" {
				u.Set(k, val)
			}
		}
		if offset > 0 {
			u.Set("offset", strconv.Itoa(offset))
		}
		if v.Limit != defaultLimit {
			u.Set("limit", strconv.Itoa(v.Limit))
		}
		return "?" + u.Encode()
	}
	if v.Offset > 0 {
		prev = q(max(0, v.Offset-v.Limit))
	}
	if v.Offset+v.Limit < v.Matched {
		next = q(v.Offset + v.Limit)
	}
	return prev, next
}
