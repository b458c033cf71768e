package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// The documentation's examples run as a newcomer copies them. Every fenced
// code block of README.md and docs/*.md is checked by its language:
//
//	sh, bash, shell  run with bash -euo pipefail in a directory laid out as
//	                 make demo leaves it (bin/, releases/ with current, the
//	                 demo key), against a live mapd; curl fails on an HTTP
//	                 error (--fail-with-body); 127.0.0.1:8080 is the test's mapd
//	go               compiled against this module (a snippet without a
//	                 package clause goes into a main with ctx and key)
//	json             parsed
//
// A block that cannot run as written (a synopsis with placeholders, a
// command that takes minutes, an answer shown for reading) says so on the
// line before its fence:
//
//	<!-- docs-test: skip (why) -->
//
// A block without a language is a synopsis and is not run;
// TestDocsMatchTheBinaries checks its flags. Indented blocks are not read:
// docs/benchmarks-history.md keeps the commands of past measurements there.
// Every other block that fails, fails the test: a doc added today with a
// wrong command or a changed signature does not pass unnoticed.

// docBlock is one fenced code block.
type docBlock struct {
	file string
	line int // of the opening fence
	lang string
	text string
	skip string // the skip marker's reason, "" to run it
}

var (
	fenceOpen  = regexp.MustCompile("^```([A-Za-z0-9_+-]*)\\s*$")
	skipMarker = regexp.MustCompile(`^<!--\s*docs-test:\s*skip\b\s*(.*?)\s*-->\s*$`)
)

// docBlocks extracts the fenced blocks of a Markdown text.
func docBlocks(file, text string) ([]docBlock, error) {
	var out []docBlock
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		m := fenceOpen.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		b := docBlock{file: file, line: i + 1, lang: m[1]}
		if i > 0 {
			if s := skipMarker.FindStringSubmatch(strings.TrimSpace(lines[i-1])); s != nil {
				b.skip = s[1]
				if b.skip == "" {
					b.skip = "(no reason given)"
				}
			}
		}
		var body []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			body = append(body, lines[i])
		}
		if i == len(lines) {
			return nil, fmt.Errorf("%s:%d: a fence that never closes", file, b.line)
		}
		b.text = strings.Join(body, "\n") + "\n"
		out = append(out, b)
	}
	return out, nil
}

func TestDocBlocksExtracted(t *testing.T) {
	md := "intro\n```sh\necho a\n```\n<!-- docs-test: skip (takes an hour) -->\n```sh\nmake test\n```\n```\nmapd serve --data DIR\n```\n```go\nx := 1\n```\n"
	got, err := docBlocks("x.md", md)
	if err != nil {
		t.Fatal(err)
	}
	want := []docBlock{
		{"x.md", 2, "sh", "echo a\n", ""},
		{"x.md", 6, "sh", "make test\n", "(takes an hour)"},
		{"x.md", 9, "", "mapd serve --data DIR\n", ""},
		{"x.md", 12, "go", "x := 1\n", ""},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	if _, err := docBlocks("y.md", "```sh\necho a\n"); err == nil {
		t.Error("an unclosed fence is accepted")
	}
}

// TestDocExamplesRun runs every documented example (see above).
func TestDocExamplesRun(t *testing.T) {
	root := compiletest.Root()
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	var blocks []docBlock
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		bs, err := docBlocks(rel, string(raw))
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, bs...)
	}
	var sandbox *demoSandbox
	shell := map[string][]docBlock{} // per file, in order: one terminal session each
	ran := 0
	for _, b := range blocks {
		name := fmt.Sprintf("%s:%d", b.file, b.line)
		if b.skip != "" {
			t.Logf("%s (%s): skipped %s", name, b.lang, b.skip)
			continue
		}
		switch b.lang {
		case "sh", "bash", "shell":
			shell[b.file] = append(shell[b.file], b)
		case "go":
			compileGoSnippet(t, root, name, b.text)
		case "json":
			var v any
			if err := json.Unmarshal([]byte(b.text), &v); err != nil {
				t.Errorf("%s: not JSON: %v", name, err)
			}
		default:
			continue
		}
		ran++
	}
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		if len(shell[rel]) == 0 {
			continue
		}
		if sandbox == nil {
			sandbox = newDemoSandbox(t)
		}
		sandbox.session(t, shell[rel])
	}
	t.Logf("%d examples checked of %d fenced blocks", ran, len(blocks))
}

// demoSandbox is a directory as make demo leaves it, with its mapd serving.
type demoSandbox struct {
	dir  string
	base string
}

func newDemoSandbox(t *testing.T) *demoSandbox {
	t.Helper()
	dir := t.TempDir()
	rel := filepath.Join(dir, "releases")
	for _, d := range []string{filepath.Join(dir, "bin"), rel} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(mapdBin, filepath.Join(dir, "bin", "mapd")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(compiletest.Mapc(t), filepath.Join(dir, "bin", "mapc")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(compiletest.Andorra(t), filepath.Join(rel, "andorra-demo")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("andorra-demo", filepath.Join(rel, "current")); err != nil {
		t.Fatal(err)
	}
	ledger := filepath.Join(rel, "ledger.db")
	acct := createAccount(t, ledger, 1_000_000)
	for name, content := range map[string]string{"demo-key": acct.Secret, "demo-account-id": acct.ID} {
		if err := os.WriteFile(filepath.Join(rel, name), []byte(content+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s := startServe(t, mapdBin, acct.Secret, "--data", rel, "--ledger", ledger, "--playground")
	return &demoSandbox{dir: dir, base: s.base}
}

// session runs a file's shell blocks one after the other in one bash, as a
// reader pastes them into one terminal (a variable set in one block is
// there in the next); each must exit 0.
func (s *demoSandbox) session(t *testing.T, blocks []docBlock) {
	t.Helper()
	var script strings.Builder
	script.WriteString("curl() { command curl --silent --show-error --fail-with-body --max-time 60 \"$@\"; }\n")
	for i, b := range blocks {
		fmt.Fprintf(&script, "echo '@@block %d@@'\n%s", i, strings.ReplaceAll(b.text, "http://127.0.0.1:8080", s.base))
	}
	script.WriteString("echo '@@done@@'\n")
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script.String())
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Join(s.dir, "bin")+":"+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err == nil && strings.HasSuffix(string(out), "@@done@@\n") {
		return
	}
	// The failing block is the last one that started.
	failed := 0
	for i := range blocks {
		if strings.Contains(string(out), fmt.Sprintf("@@block %d@@", i)) {
			failed = i
		}
	}
	b := blocks[failed]
	_, tail, _ := strings.Cut(string(out), fmt.Sprintf("@@block %d@@\n", failed))
	t.Errorf("%s:%d fails as written (%v); the blocks after it in the file did not run\n--- the block:\n%s--- its output:\n%s",
		b.file, b.line, err, b.text, tail)
}

// compileGoSnippet builds a Go block against this module: a whole file as
// it is, a snippet inside main with ctx and key in scope.
func compileGoSnippet(t *testing.T, root, name, src string) {
	t.Helper()
	if !strings.Contains(src, "package ") {
		src = wrapSnippet(src)
	}
	cache := filepath.Join(root, ".cache")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp(cache, "docsnippet-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-o", os.DevNull, "./"+filepath.Base(dir))
	cmd.Dir = cache
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%s does not compile: %v\n--- as compiled:\n%s--- go build:\n%s", name, err, src, out)
	}
}

// wrapSnippet puts statements in a main that gives them ctx and key, and
// uses every variable they declare (a snippet shows a call, not what its
// caller does with the answer).
func wrapSnippet(body string) string {
	src := "package main\n\nimport (\n\t\"context\"\n\n\t\"github.com/mapsco/maps/pkg/client\"\n)\n\n" +
		"var _ = client.WithKey\n\nfunc main() {\n\tctx := context.Background()\n\tkey := \"sk_example\"\n\t_, _ = ctx, key\n" +
		body + "\n}\n"
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", src, 0)
	if err != nil {
		return src // the compiler will say what is wrong
	}
	var uses []string
	main := f.Decls[len(f.Decls)-1].(*ast.FuncDecl)
	for _, st := range main.Body.List { // main's own scope: what the end of main sees
		if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					uses = append(uses, "\t_ = "+id.Name+"\n")
				}
			}
		}
	}
	return strings.TrimSuffix(src, "}\n") + strings.Join(uses, "") + "}\n"
}
