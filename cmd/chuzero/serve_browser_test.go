package main

import (
	"context"
	"flag"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"chuzero/rules"
)

var (
	screenshots  = flag.String("screenshots", "", "write TestServeBrowser's screenshot of the position page (web-position.png) into this directory (docs/ for the README)")
	shotRun      = flag.String("screenshot-run", "", "the run TestServeBrowser serves (default: a fresh tiny-network Chu run)")
	shotPosition = flag.String("screenshot-sfen", "", "the position TestServeBrowser analyses (default: the start)")
)

// TestServeBrowser opens the position page of "chuzero serve" in headless
// Chromium: the run's real networks (training.PositionNetworks) answer, and the board
// shows their most probable moves as arrows beside the value. Without
// Chromium it skips (fails with CHUZERO_BROWSER_REQUIRED=1, as in CI).
func TestServeBrowser(t *testing.T) {
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("CHUZERO_BROWSER_REQUIRED") == "1" {
			t.Fatal("chromium not installed (CHUZERO_BROWSER_REQUIRED=1): apt-get install chromium")
		}
		t.Skip("chromium not installed: apt-get install chromium")
	}
	dir := *shotRun
	if dir == "" {
		dir = webTestRun(t, rules.Chu)
	}
	sctx, stopServe := context.WithCancel(context.Background())
	addr, served := make(chan string, 1), make(chan error, 1)
	go func() {
		served <- serveWeb(sctx, serveOptions{runDir: dir, addr: "127.0.0.1:0"}, func(a string) { addr <- a })
	}()
	base := "http://" + <-addr
	defer func() {
		stopServe()
		if err := <-served; err != nil {
			t.Error(err)
		}
	}()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.DisableGPU, chromedp.NoSandbox,
		chromedp.WindowSize(1280, 820), chromedp.UserDataDir(t.TempDir()))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	bctx, cancelTab := chromedp.NewContext(actx)
	defer cancelTab()
	ctx, cancel := context.WithTimeout(bctx, 2*time.Minute) // a bound, not a pace: the page answers in a second
	defer cancel()
	page := base + "/position"
	if *shotPosition != "" {
		page += "?sfen=" + url.QueryEscape(*shotPosition)
	}
	err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 820), chromedp.Navigate(page),
		chromedp.Poll[chromedp.Void]("document.querySelectorAll('#board .arrow').length > 0 && document.querySelectorAll('#priors tbody tr').length > 0",
			chromedp.WithPollingInterval(50*time.Millisecond)))
	if err != nil {
		t.Fatalf("the position page: %v", err)
	}
	value, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("value")))
	if err != nil || !strings.Contains(value, "step-") || !strings.Contains(value, "win ") {
		t.Errorf("the value line: %q, %v", value, err)
	}
	if *screenshots != "" {
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*screenshots, "web-position.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
