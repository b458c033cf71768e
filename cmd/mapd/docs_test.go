package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// The documentation's command lines must match the binaries: every --flag
// written after `mapd SUBCOMMAND` or `mapc SUBCOMMAND` in the README, docs/
// and deploy/README.md must be one the command takes.

var (
	// commandRef finds "mapd account show|suspend" and the like: the binary
	// and the lowercase words after it (alternatives joined by |).
	commandRef = regexp.MustCompile(`\b(mapd|mapc) ((?:[a-z][a-z|]*)(?: [a-z][a-z|]*)*)`)
	docFlag    = regexp.MustCompile(`(?:^|[\s\[(` + "`" + `])(--[a-z][a-z-]*)`)
	subcommand = regexp.MustCompile(`(?m)^  ([a-z][a-z-]*)\s{2,}`)
)

// helpCache runs `BIN PATH... --help` once per command path.
type helpCache struct {
	mu   sync.Mutex
	bins map[string]string
	help map[string]string
}

func (h *helpCache) get(t *testing.T, path []string) (string, bool) {
	key := strings.Join(path, " ")
	h.mu.Lock()
	defer h.mu.Unlock()
	if out, ok := h.help[key]; ok {
		return out, out != ""
	}
	out, err := exec.Command(h.bins[path[0]], append(path[1:], "--help")...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Usage:") {
		out = nil
	}
	h.help[key] = string(out)
	return string(out), out != nil
}

// subcommands lists the "Available Commands" of a help text.
func subcommands(help string) map[string]bool {
	_, after, ok := strings.Cut(help, "Available Commands:")
	if !ok {
		return nil
	}
	section, _, _ := strings.Cut(after, "\n\n")
	out := map[string]bool{}
	for _, m := range subcommand.FindAllStringSubmatch(section+"\n", -1) {
		out[m[1]] = true
	}
	return out
}

func TestDocsMatchTheBinaries(t *testing.T) {
	root := compiletest.Root()
	mapcBin := filepath.Join(t.TempDir(), "mapc")
	if out, err := exec.Command("go", "build", "-o", mapcBin, filepath.Join(root, "cmd", "mapc")).CombinedOutput(); err != nil {
		t.Fatalf("build mapc: %v\n%s", err, out)
	}
	h := &helpCache{bins: map[string]string{"mapd": mapdBin, "mapc": mapcBin}, help: map[string]string{}}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append(docs, filepath.Join(root, "README.md"), filepath.Join(root, "deploy", "README.md"))
	checked := 0
	for _, doc := range docs {
		raw, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(raw), "\n") {
			refs := commandRef.FindAllStringSubmatchIndex(line, -1)
			for i, ref := range refs {
				end := len(line)
				if i+1 < len(refs) {
					end = refs[i+1][0]
				}
				segment := line[ref[1]:end]
				if c := strings.IndexAny(segment, "#`"); c >= 0 { // a shell comment, or the end of inline code
					segment = segment[:c]
				}
				paths := resolve(t, h, line[ref[2]:ref[3]], strings.Fields(line[ref[4]:ref[5]]))
				if paths == nil {
					continue // prose: "mapd holds the lock"
				}
				for _, m := range docFlag.FindAllStringSubmatch(segment, -1) {
					checked++
					if !anyHelpHas(t, h, paths, m[1]) {
						t.Errorf("%s:%d: %s takes no %s\n\t%s", filepath.Base(doc), n+1, names(paths), m[1], strings.TrimSpace(line))
					}
				}
			}
		}
	}
	t.Logf("checked %d flags of command lines in %d documents", checked, len(docs))
	if checked < 20 {
		t.Errorf("checked only %d flags in the docs: the pattern finds no command lines", checked)
	}
}

// resolve walks the words after a binary down its command tree, following
// every alternative that is a subcommand; nil means the first word is none.
func resolve(t *testing.T, h *helpCache, bin string, words []string) [][]string {
	paths := [][]string{{bin}}
	descended := false
	for _, w := range words {
		var next [][]string
		for _, p := range paths {
			help, _ := h.get(t, p)
			subs := subcommands(help)
			for _, alt := range strings.Split(w, "|") {
				if subs[alt] {
					next = append(next, append(append([]string(nil), p...), alt))
				}
			}
		}
		if next == nil {
			break
		}
		paths, descended = next, true
	}
	if !descended {
		return nil
	}
	return paths
}

func anyHelpHas(t *testing.T, h *helpCache, paths [][]string, flag string) bool {
	for _, p := range paths {
		if help, ok := h.get(t, p); ok && regexp.MustCompile(`\s`+regexp.QuoteMeta(flag)+`[\s=]`).MatchString(help) {
			return true
		}
	}
	return false
}

func names(paths [][]string) string {
	var out []string
	for _, p := range paths {
		out = append(out, strings.Join(p, " "))
	}
	return strings.Join(out, " or ")
}
