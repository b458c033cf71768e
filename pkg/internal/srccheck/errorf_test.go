package srccheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// verb matches one fmt verb, flags and width included.
var verb = regexp.MustCompile(`%[-+# 0-9.*\[\]]*[a-zA-Z%]`)

// errName matches what the source calls an error value: err, err0,
// run.err, firstErr.
var errName = regexp.MustCompile(`(^|\.)(err[0-9]*|[a-z]\w*Err)$`)

// An fmt.Errorf that wraps a sentinel (%w) and prints the cause with %v
// hides the cause from errors.Is and errors.As: wrap both (Go allows
// several %w). Where the cause must not travel (a DSN with a password), pass
// a redacted string instead, as pkg/ledger's redactDSNError does, with a
// comment saying why.
func TestErrorfWrapsTheCause(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		for _, bad := range hiddenCauses(t, path) {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s:%d: %s", rel, bad.line, bad.call)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

type hidden struct {
	line int
	call string
}

// hiddenCauses lists the fmt.Errorf calls of a file that have a %w and
// print an error-named argument with %v.
func hiddenCauses(t *testing.T, path string) []hidden {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []hidden
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !isFmtErrorf(call) || len(call.Args) == 0 {
			return true
		}
		lit, ok := call.Args[0].(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		format, err := strconv.Unquote(lit.Value)
		if err != nil || !strings.Contains(format, "%w") {
			return true
		}
		arg := 1
		for _, v := range verb.FindAllString(format, -1) {
			if v == "%%" {
				continue
			}
			if strings.HasSuffix(v, "v") && arg < len(call.Args) && errName.MatchString(exprText(src, fset, call.Args[arg])) {
				out = append(out, hidden{fset.Position(call.Pos()).Line, exprText(src, fset, call)})
			}
			arg++
		}
		return true
	})
	return out
}

func isFmtErrorf(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Errorf" {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "fmt"
}

// exprText returns the source text of e.
func exprText(src []byte, fset *token.FileSet, e ast.Expr) string {
	return string(src[fset.Position(e.Pos()).Offset:fset.Position(e.End()).Offset])
}
