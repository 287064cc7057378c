package web

import (
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"chuzero/checkpoints"
	"chuzero/rules"
	"chuzero/selfplay/report"
)

var (
	screenshots = flag.String("screenshots", "", "write the browser test's screenshots (PNG) into this directory (docs/ for the README)")
	shotRun     = flag.String("screenshot-run", "", "a finished run to show in the run page's screenshot (default: the test's Sho run)")
)

// browserWait bounds each wait for the page to reach a state; the states
// come within a second or two (the run page polls every second here).
const browserWait = 60 * time.Second

// findChromium returns the path of a Chromium (or Chrome) binary, "" if
// there is none.
func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser is one headless Chromium tab and the script errors it saw.
type browser struct {
	t   *testing.T
	ctx context.Context

	mu     sync.Mutex
	errors []string
}

// newBrowser starts headless Chromium, or skips the test without one
// (fails it when CHUZERO_BROWSER_REQUIRED=1, as CI sets).
func newBrowser(t *testing.T) *browser {
	path := findChromium()
	if path == "" {
		if os.Getenv("CHUZERO_BROWSER_REQUIRED") == "1" {
			t.Fatal("chromium not installed (CHUZERO_BROWSER_REQUIRED=1): apt-get install chromium")
		}
		t.Skip("chromium not installed: apt-get install chromium")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.DisableGPU,
		chromedp.NoSandbox, chromedp.WindowSize(1280, 1000), chromedp.UserDataDir(t.TempDir()))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	b := &browser{t: t, ctx: ctx}
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			msg := e.ExceptionDetails.Text
			if x := e.ExceptionDetails.Exception; x != nil {
				msg += " " + x.Description
			}
			b.mu.Lock()
			b.errors = append(b.errors, msg)
			b.mu.Unlock()
		}
	}); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 1000)); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return b
}

// do runs actions, failing the test on an error or a script error.
func (b *browser) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserWait)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.errors) > 0 {
		b.t.Fatalf("%s: script errors: %q", what, b.errors)
	}
}

// navigate runs actions that load a page (a click on a link, a form
// submitted) and waits for the page; it fails the test unless it is a 200.
func (b *browser) navigate(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserWait)
	defer cancel()
	resp, err := chromedp.RunResponse(ctx, actions...)
	if err != nil || resp.Status != 200 {
		b.t.Fatalf("%s: %v (response %+v)", what, err, resp)
	}
}

// wait waits until the JavaScript expression is true.
func (b *browser) wait(what, expr string) {
	b.t.Helper()
	b.do(what+" ("+expr+")", chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(browserWait)))
}

// jsEval returns the value of a JavaScript expression.
func jsEval[T any](b *browser, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserWait)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// shot saves the viewport as name.png in -screenshots, if given.
func (b *browser) shot(name string) {
	b.t.Helper()
	if *screenshots == "" {
		return
	}
	ctx, cancel := context.WithTimeout(b.ctx, browserWait)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(*screenshots, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// TestBrowser loads every page of a finished Sho run and a Chu run in
// headless Chromium and checks the rendered pages: the run's numbers
// refresh without a reload, the games filter, the board has a square per
// board square, the keys step through the game, the position page shows
// the evaluator's moves. With -screenshots DIR it saves the run page and a
// Chu game as PNG (cmd/chuzero's TestServeBrowser saves the position page,
// with a real network).
func TestBrowser(t *testing.T) {
	b := newBrowser(t)
	for _, tt := range []struct {
		v       rules.VariantID
		squares int
	}{{rules.Sho, 81}, {rules.Chu, 144}} {
		dir := copyRun(t, tt.v)
		cfg := DefaultConfig(checkpoints.Run{Dir: dir})
		cfg.Networks, cfg.Rescan, cfg.Redraw, cfg.Poll = randomNetworks{}, 0, 0, time.Second
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(s)
		browseRun(b, srv.URL, dir)
		browseGames(b, srv.URL, tt.squares)
		browsePosition(b, srv.URL, tt.squares)
		if tt.v == rules.Chu {
			b.do("the Chu games", chromedp.Navigate(srv.URL+"/games?kind=selfplay"))
			b.navigate("a Chu game", chromedp.Click(chromedp.CSS("a.open")))
			b.wait("the board", "document.querySelectorAll('#board .pc').length > 0")
			browseLion(b)
			b.shot("web-game-chu")
		}
		srv.Close()
	}
	runShot(b)
}

// browseRun checks the run page: its tables and plots, and its status
// line following a new training log line without a reload.
func browseRun(b *browser, base, dir string) {
	b.do("the run page", chromedp.Navigate(base+"/"))
	b.wait("the plots", "[...document.querySelectorAll('.plots img')].every(i => i.complete && i.naturalWidth === 960)")
	if n := jsEval[int](b, "document.querySelectorAll('.plots img').length"); n != len(report.Plots()) {
		b.t.Errorf("run page: %d plots, want %d", n, len(report.Plots()))
	}
	if got := jsEval[string](b, "document.querySelector('#eval-table').textContent"); !strings.Contains(got, "step-000000004") {
		b.t.Errorf("run page: the evaluation table reads %q", got)
	}
	lossURL := jsEval[string](b, `document.querySelector('img[data-plot="loss.png"]').getAttribute('src')`)
	app := checkpoints.Run{Dir: dir}.Appender(checkpoints.TrainLog)
	if err := app.Append(checkpoints.TrainEntry{Time: time.Now().UTC(), Step: 77, Loss: 2.5, PolicyLoss: 2, ValueLoss: 0.5}); err != nil {
		b.t.Fatal(err)
	}
	b.wait("the step refreshed", "document.querySelector('[data-key=step]').textContent === '77'")
	b.wait("the loss plot redrawn", fmt.Sprintf("document.querySelector('img[data-plot=\"loss.png\"]').getAttribute('src') !== %q", lossURL))
}

// browseGames checks the games list and its filter, then opens the newest
// self-play game and steps through it with the keyboard.
func browseGames(b *browser, base string, squares int) {
	b.do("the games page", chromedp.Navigate(base+"/games"))
	if n := jsEval[int](b, "document.querySelectorAll('#games tbody tr').length"); n != 12 {
		b.t.Errorf("games page: %d rows, want 12", n)
	}
	b.navigate("filter gating", chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector('select[name=kind]'); s.value = 'gating'; s.dispatchEvent(new Event('change')); })()`))
	if n := jsEval[int](b, "document.querySelectorAll('#games tbody tr').length"); n != 2 || jsEval[string](b, "location.search") != "?kind=gating" {
		b.t.Errorf("games filtered by kind gating: %d rows, want 2", n)
	}
	b.do("the self-play games", chromedp.Navigate(base+"/games?kind=selfplay"))
	b.navigate("a self-play game", chromedp.Click(chromedp.CSS("a.open")))
	b.wait("the board", fmt.Sprintf("document.querySelectorAll('#board rect.sq').length === %d && document.getElementById('board')?.dataset.ply === '0'", squares))
	start := jsEval[string](b, "document.getElementById('board').dataset.position")
	b.do("right arrow", chromedp.KeyEvent(kb.ArrowRight))
	b.wait("ply 1", "document.getElementById('board')?.dataset.ply === '1'")
	if pos := jsEval[string](b, "document.getElementById('board').dataset.position"); pos == start {
		b.t.Errorf("the right arrow did not change the board")
	}
	if jsEval[int](b, "document.querySelectorAll('#board .last-to').length") != 1 {
		b.t.Errorf("no last-move highlight at ply 1")
	}
	b.do("End", chromedp.KeyEvent(kb.End))
	b.wait("the last ply", "document.getElementById('board')?.dataset.ply === String(document.querySelectorAll('#moves tr').length)")
	b.do("Home", chromedp.KeyEvent(kb.Home))
	b.wait("the start", "document.getElementById('board')?.dataset.ply === '0'")
	if !jsEval[bool](b, "!!document.querySelector('#valueplot polyline.value')") {
		b.t.Errorf("no value plot under a self-play game")
	}
	latin := "/^[+A-Za-z]+$/.test(document.querySelector('#board .pc text').textContent)"
	if !jsEval[bool](b, "Board.hasKanji()") {
		// no font with the kanji (Debian's chromium with its default fonts):
		// the board starts in Latin letters, and the kanji are a click away
		b.t.Log("this browser has no font with the kanji: the board starts in Latin letters")
		if !jsEval[bool](b, latin) || !jsEval[bool](b, "document.getElementById('latin').checked") {
			b.t.Errorf("no kanji font, yet the board shows %q", jsEval[string](b, "document.querySelector('#board .pc text').textContent"))
		}
		b.do("kanji", chromedp.Click(chromedp.ID("latin")))
		b.wait("kanji", "!"+latin)
		b.do("Latin letters again", chromedp.Click(chromedp.ID("latin")))
		b.wait("Latin letters again", latin)
		return
	}
	kanji := jsEval[string](b, "document.querySelector('#board .pc text').textContent")
	b.do("Latin letters", chromedp.Click(chromedp.ID("latin")))
	b.wait("Latin letters", latin)
	b.do("kanji again", chromedp.Click(chromedp.ID("latin")))
	if got := jsEval[string](b, "document.querySelector('#board .pc text').textContent"); got != kanji {
		b.t.Errorf("kanji %q, then %q", kanji, got)
	}
}

// browseLion goes to the first Lion double move of the Chu game and
// checks its highlight: the first leg's square and the Lion's path.
func browseLion(b *browser) {
	if !jsEval[bool](b, "!!document.querySelector('#moves tr[data-lion]')") {
		b.t.Log("the Chu game has no Lion double move to show")
		return
	}
	b.do("a Lion double move", chromedp.Click(chromedp.CSS("#moves tr[data-lion]")))
	b.wait("its highlight", "document.querySelectorAll('#board .last-mid').length === 1 && !!document.querySelector('#board .lionpath')")
}

// browsePosition checks the position page: the network's moves as arrows
// and a table, and a clear error for a bad SFEN.
func browsePosition(b *browser, base string, squares int) {
	b.do("the position page", chromedp.Navigate(base+"/position"))
	b.wait("the analysis", "document.querySelectorAll('#priors tbody tr').length > 0 && document.querySelectorAll('#board .arrow').length > 0")
	if n := jsEval[int](b, "document.querySelectorAll('#board rect.sq').length"); n != squares {
		b.t.Errorf("position page: %d squares, want %d", n, squares)
	}
	if got := jsEval[string](b, "document.getElementById('value').textContent"); !strings.Contains(got, "value") {
		b.t.Errorf("position page: value line %q", got)
	}
	if got := jsEval[string](b, "document.getElementById('quiescence').textContent"); !strings.Contains(got, "after the exchanges") {
		b.t.Errorf("position page: quiescence line %q", got)
	}
	b.do("a bad SFEN", chromedp.SetValue(chromedp.ID("sfen-input"), "not a position"), chromedp.Click(chromedp.CSS("#posform button")))
	b.wait("the error", "document.getElementById('position-error')?.textContent.includes('bad request')")
}

// runShot saves the run page's screenshot, of -screenshot-run if given.
func runShot(b *browser) {
	if *screenshots == "" {
		return
	}
	dir := *shotRun
	if dir == "" {
		dir = testRun(b.t, rules.Sho)
	}
	s, err := New(DefaultConfig(checkpoints.Run{Dir: dir}))
	if err != nil {
		b.t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	b.do("the run page", chromedp.Navigate(srv.URL+"/"))
	b.wait("the plots", "[...document.querySelectorAll('.plots img')].every(i => i.complete && i.naturalWidth > 0)")
	b.shot("web-run")
}
