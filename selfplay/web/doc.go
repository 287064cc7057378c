// Package web is the browser UI of a run directory: the run's status,
// config, checkpoints, evaluation, gating and the report's plots (redrawn
// as the logs grow); the games (self-play, evaluation, gating, arena) in
// a list and, one at a time, in a board viewer; and a position page with
// a network's policy and value. Every page has a JSON endpoint beside it
// for its script:
//
//	/              the run            /api/run
//	/games         the games list     /api/games?kind=&result=&reason=&match=&offset=&limit=
//	/games/ID      one game           /api/games/ID (the position after every ply)
//	/position      a position         /api/position?sfen=&checkpoint=
//	/plots/NAME    a plot of the report (selfplay/report), PNG
//	/static/       the stylesheet and scripts (embedded)
//
// The server only reads the run directory, which the run may be writing
// meanwhile: a games file is scanned line by line into an index of a few
// fields per game, a game's line is read again by its offset when it is
// asked for, and a cut last line is skipped. Nothing of a request is
// joined onto a path: a game id is looked up in the index, a plot name in
// the report's list, a checkpoint in the run's listing. Positions come
// from the rules package; the network comes in through Networks, which
// cmd/chuzero implements with the model package.
//
// Usage:
//
//	cfg := web.DefaultConfig("runs/chu")
//	cfg.Networks = nets  // optional: the position page's network
//	cfg.Metrics = reg    // optional: the serving process's metrics
//	srv, err := web.New(cfg)
//	mux.Handle("/", srv) // beside /metrics
package web
