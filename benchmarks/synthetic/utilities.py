"""Plain Go utility packages (no Kubernetes import), shared by operator modules and vendor/, and the tools
modules built from them."""

from __future__ import annotations

import random

from synthetic.vocabulary import go_imports
from synthetic.writer import Writer


def _util_strutil(rng: random.Random, package: str) -> str:
    limit = rng.choice((40, 52, 63))
    return (
        f"// Package {package} holds string helpers.\n"
        f"package {package}\n\n"
        'import (\n\t"crypto/sha1"\n\t"encoding/hex"\n\t"strings"\n\t"unicode"\n)\n\n'
        f"// MaxNameLength is the longest name Truncate returns.\nconst MaxNameLength = {limit}\n\n"
        "// Truncate shortens s to MaxNameLength, keeping it unique with a hash suffix.\n"
        "func Truncate(s string) string {\n"
        "\tif len(s) <= MaxNameLength {\n\t\treturn s\n\t}\n"
        "\tsum := sha1.Sum([]byte(s))\n"
        "\tsuffix := hex.EncodeToString(sum[:])[:8]\n"
        '\treturn strings.TrimRight(s[:MaxNameLength-9], "-") + "-" + suffix\n'
        "}\n\n"
        "// Sanitize lowercases s and replaces what a DNS label cannot hold with dashes.\n"
        "func Sanitize(s string) string {\n"
        "\tvar b strings.Builder\n"
        "\tfor _, r := range strings.ToLower(s) {\n"
        "\t\tswitch {\n"
        "\t\tcase unicode.IsLetter(r) && r < unicode.MaxASCII, unicode.IsDigit(r):\n"
        "\t\t\tb.WriteRune(r)\n"
        "\t\tdefault:\n"
        "\t\t\tb.WriteRune('-')\n"
        "\t\t}\n"
        "\t}\n"
        '\treturn strings.Trim(b.String(), "-")\n'
        "}\n\n"
        "// SplitList splits a comma-separated flag value, dropping blanks.\n"
        "func SplitList(value string) []string {\n"
        "\tvar out []string\n"
        '\tfor _, part := range strings.Split(value, ",") {\n'
        '\t\tif part = strings.TrimSpace(part); part != "" {\n'
        "\t\t\tout = append(out, part)\n"
        "\t\t}\n"
        "\t}\n"
        "\treturn out\n"
        "}\n"
    )


def _util_retry(rng: random.Random, package: str) -> str:
    attempts = rng.choice((3, 5, 8))
    return (
        f"// Package {package} retries operations with exponential backoff.\n"
        f"package {package}\n\n"
        'import (\n\t"context"\n\t"errors"\n\t"math/rand"\n\t"time"\n)\n\n'
        f"// DefaultAttempts is how often Do tries before giving up.\nconst DefaultAttempts = {attempts}\n\n"
        "// ErrExhausted is returned when every attempt failed.\n"
        'var ErrExhausted = errors.New("retry: attempts exhausted")\n\n'
        "// Policy says how long to wait between attempts.\n"
        "type Policy struct {\n"
        "\tInitial  time.Duration\n"
        "\tMax      time.Duration\n"
        "\tJitter   float64\n"
        "\tAttempts int\n"
        "}\n\n"
        "// Delay returns the wait before attempt n (0-based).\n"
        "func (p Policy) Delay(n int) time.Duration {\n"
        "\td := p.Initial << uint(n)\n"
        "\tif d <= 0 || d > p.Max {\n\t\td = p.Max\n\t}\n"
        "\tif p.Jitter > 0 {\n"
        "\t\td += time.Duration(rand.Float64() * p.Jitter * float64(d))\n"
        "\t}\n"
        "\treturn d\n"
        "}\n\n"
        "// Do calls fn until it succeeds, the context ends or the attempts run out.\n"
        "func Do(ctx context.Context, p Policy, fn func() error) error {\n"
        "\tattempts := p.Attempts\n"
        "\tif attempts == 0 {\n\t\tattempts = DefaultAttempts\n\t}\n"
        "\tfor n := 0; n < attempts; n++ {\n"
        "\t\tif err := fn(); err == nil {\n\t\t\treturn nil\n\t\t}\n"
        "\t\tselect {\n"
        "\t\tcase <-ctx.Done():\n\t\t\treturn ctx.Err()\n"
        "\t\tcase <-time.After(p.Delay(n)):\n"
        "\t\t}\n"
        "\t}\n"
        "\treturn ErrExhausted\n"
        "}\n"
    )


def _util_semver(rng: random.Random, package: str) -> str:
    return (
        f"// Package {package} compares dotted version strings.\n"
        f"package {package}\n\n"
        'import (\n\t"fmt"\n\t"strconv"\n\t"strings"\n)\n\n'
        "// Version is a parsed major.minor.patch version.\n"
        "type Version struct {\n\tMajor, Minor, Patch int\n\tPre          string\n}\n\n"
        "// Parse reads v1.2.3, 1.2 or 1.2.3-rc.1.\n"
        "func Parse(s string) (Version, error) {\n"
        "\tvar v Version\n"
        '\ts = strings.TrimPrefix(s, "v")\n'
        "\tif i := strings.IndexByte(s, '-'); i >= 0 {\n"
        "\t\tv.Pre = s[i+1:]\n\t\ts = s[:i]\n\t}\n"
        '\tparts := strings.Split(s, ".")\n'
        "\tif len(parts) < 2 || len(parts) > 3 {\n"
        '\t\treturn v, fmt.Errorf("version %q: want major.minor[.patch]", s)\n'
        "\t}\n"
        "\tnumbers := []*int{&v.Major, &v.Minor, &v.Patch}\n"
        "\tfor i, part := range parts {\n"
        "\t\tn, err := strconv.Atoi(part)\n"
        "\t\tif err != nil {\n"
        '\t\t\treturn v, fmt.Errorf("version %q: %w", s, err)\n'
        "\t\t}\n"
        "\t\t*numbers[i] = n\n"
        "\t}\n"
        "\treturn v, nil\n"
        "}\n\n"
        "// Less orders versions; a pre-release sorts before its release.\n"
        "func (v Version) Less(o Version) bool {\n"
        "\tif v.Major != o.Major {\n\t\treturn v.Major < o.Major\n\t}\n"
        "\tif v.Minor != o.Minor {\n\t\treturn v.Minor < o.Minor\n\t}\n"
        "\tif v.Patch != o.Patch {\n\t\treturn v.Patch < o.Patch\n\t}\n"
        '\treturn v.Pre != "" && (o.Pre == "" || v.Pre < o.Pre)\n'
        "}\n\n"
        "// String renders the version with a v prefix.\n"
        "func (v Version) String() string {\n"
        '\ts := fmt.Sprintf("v%d.%d.%d", v.Major, v.Minor, v.Patch)\n'
        '\tif v.Pre != "" {\n\t\ts += "-" + v.Pre\n\t}\n'
        "\treturn s\n"
        "}\n"
    )


def _util_ring(rng: random.Random, package: str) -> str:
    return (
        f"// Package {package} holds a fixed-size ring buffer of recent values.\n"
        f"package {package}\n\n"
        'import "sync"\n\n'
        "// Buffer keeps the last N values pushed into it; it is safe for concurrent use.\n"
        "type Buffer[T any] struct {\n"
        "\tmu    sync.Mutex\n"
        "\titems []T\n"
        "\tnext  int\n"
        "\tfull  bool\n"
        "}\n\n"
        "// New returns a buffer of the given capacity.\n"
        "func New[T any](capacity int) *Buffer[T] {\n"
        "\treturn &Buffer[T]{items: make([]T, capacity)}\n"
        "}\n\n"
        "// Push adds a value, dropping the oldest when full.\n"
        "func (b *Buffer[T]) Push(v T) {\n"
        "\tb.mu.Lock()\n\tdefer b.mu.Unlock()\n"
        "\tb.items[b.next] = v\n"
        "\tb.next = (b.next + 1) % len(b.items)\n"
        "\tif b.next == 0 {\n\t\tb.full = true\n\t}\n"
        "}\n\n"
        "// Items returns the values, oldest first.\n"
        "func (b *Buffer[T]) Items() []T {\n"
        "\tb.mu.Lock()\n\tdefer b.mu.Unlock()\n"
        "\tif !b.full {\n"
        "\t\treturn append([]T(nil), b.items[:b.next]...)\n"
        "\t}\n"
        "\treturn append(append([]T(nil), b.items[b.next:]...), b.items[:b.next]...)\n"
        "}\n\n"
        "// Len is the number of values held.\n"
        "func (b *Buffer[T]) Len() int {\n"
        "\tb.mu.Lock()\n\tdefer b.mu.Unlock()\n"
        "\tif b.full {\n\t\treturn len(b.items)\n\t}\n"
        "\treturn b.next\n"
        "}\n"
    )


def _util_metrics(rng: random.Random, package: str) -> str:
    buckets = ", ".join(str(value) for value in sorted(rng.sample([0.005, 0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10], 6)))
    return (
        f"// Package {package} keeps simple in-process latency histograms.\n"
        f"package {package}\n\n"
        'import (\n\t"fmt"\n\t"io"\n\t"sort"\n\t"sync"\n\t"time"\n)\n\n'
        f"// Buckets are the upper bounds, in seconds.\nvar Buckets = []float64{{{buckets}}}\n\n"
        "// Histogram counts observations per bucket.\n"
        "type Histogram struct {\n"
        "\tmu     sync.Mutex\n"
        "\tcounts map[string][]uint64\n"
        "}\n\n"
        "// Observe records how long an operation named op took.\n"
        "func (h *Histogram) Observe(op string, d time.Duration) {\n"
        "\th.mu.Lock()\n\tdefer h.mu.Unlock()\n"
        "\tif h.counts == nil {\n\t\th.counts = map[string][]uint64{}\n\t}\n"
        "\tc, ok := h.counts[op]\n"
        "\tif !ok {\n"
        "\t\tc = make([]uint64, len(Buckets)+1)\n"
        "\t\th.counts[op] = c\n"
        "\t}\n"
        "\ti := sort.SearchFloat64s(Buckets, d.Seconds())\n"
        "\tc[i]++\n"
        "}\n\n"
        "// WriteTo prints the histogram, one line per operation.\n"
        "func (h *Histogram) WriteTo(w io.Writer) (int64, error) {\n"
        "\th.mu.Lock()\n\tdefer h.mu.Unlock()\n"
        "\tops := make([]string, 0, len(h.counts))\n"
        "\tfor op := range h.counts {\n\t\tops = append(ops, op)\n\t}\n"
        "\tsort.Strings(ops)\n"
        "\tvar total int64\n"
        "\tfor _, op := range ops {\n"
        '\t\tn, err := fmt.Fprintf(w, "%s %v\\n", op, h.counts[op])\n'
        "\t\ttotal += int64(n)\n"
        "\t\tif err != nil {\n\t\t\treturn total, err\n\t\t}\n"
        "\t}\n"
        "\treturn total, nil\n"
        "}\n"
    )


def _util_tmpl(rng: random.Random, package: str) -> str:
    return (
        f"// Package {package} renders small text templates for generated configuration.\n"
        f"package {package}\n\n"
        'import (\n\t"bytes"\n\t"fmt"\n\t"strings"\n\t"text/template"\n)\n\n'
        "var funcs = template.FuncMap{\n"
        '\t"upper": strings.ToUpper,\n'
        '\t"indent": func(n int, s string) string {\n'
        '\t\tpad := strings.Repeat(" ", n)\n'
        '\t\treturn pad + strings.ReplaceAll(s, "\\n", "\\n"+pad)\n'
        "\t},\n"
        '\t"quote": func(s string) string { return fmt.Sprintf("%q", s) },\n'
        "}\n\n"
        "// Render executes the template text with data.\n"
        "func Render(name, text string, data any) (string, error) {\n"
        '\tt, err := template.New(name).Funcs(funcs).Option("missingkey=error").Parse(text)\n'
        "\tif err != nil {\n"
        '\t\treturn "", fmt.Errorf("parse %s: %w", name, err)\n'
        "\t}\n"
        "\tvar out bytes.Buffer\n"
        "\tif err := t.Execute(&out, data); err != nil {\n"
        '\t\treturn "", fmt.Errorf("render %s: %w", name, err)\n'
        "\t}\n"
        "\treturn out.String(), nil\n"
        "}\n\n"
        "// MustRender is Render for templates known at compile time.\n"
        "func MustRender(name, text string, data any) string {\n"
        "\tout, err := Render(name, text, data)\n"
        "\tif err != nil {\n\t\tpanic(err)\n\t}\n"
        "\treturn out\n"
        "}\n"
    )


GO_UTILITIES = {
    "strutil": _util_strutil,
    "retry": _util_retry,
    "semver": _util_semver,
    "ring": _util_ring,
    "latency": _util_metrics,
    "tmpl": _util_tmpl,
}


def write_tools_module(rng: random.Random, name: str, writer: Writer) -> None:
    """A Go module of repository tooling without any Kubernetes import."""
    base = f"tools/{name}"
    module = f"example.com/monorepo/tools/{name}"
    writer.write(f"{base}/go.mod", f"module {module}\n\ngo 1.22\n", "go.mod")
    for util in sorted(GO_UTILITIES):
        writer.write(f"{base}/internal/{util}/{util}.go", GO_UTILITIES[util](rng, util), "go")
    commands = rng.sample(["relnotes", "licensecheck", "crdlint", "bumpdeps"], 2)
    for command in commands:
        writer.write(f"{base}/cmd/{command}/main.go", _tool_main(rng, command, module), "go")


def _tool_main(rng: random.Random, command: str, module: str) -> str:
    header = rng.choice(("Copyright The Authors.", "SPDX-License-Identifier: Apache-2.0"))
    return (
        f"// Command {command} is a repository maintenance tool.\n"
        "package main\n\n"
        + go_imports(
            [("", "bufio"), ("", "flag"), ("", "fmt"), ("", "os"), ("", "path/filepath"), ("", "strings")],
            [[("", f"{module}/internal/strutil")]],
        )
        + f'\nconst header = "{header}"\n\n'
        "func main() {\n"
        '\troot := flag.String("root", ".", "repository root")\n'
        '\tfix := flag.Bool("fix", false, "rewrite files in place")\n'
        "\tflag.Parse()\n"
        "\tvar bad []string\n"
        "\terr := filepath.Walk(*root, func(path string, info os.FileInfo, err error) error {\n"
        "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n"
        '\t\tif info.IsDir() && (info.Name() == "vendor" || strings.HasPrefix(info.Name(), ".")) {\n'
        "\t\t\treturn filepath.SkipDir\n"
        "\t\t}\n"
        '\t\tif info.IsDir() || !strings.HasSuffix(path, ".go") {\n\t\t\treturn nil\n\t\t}\n'
        "\t\tok, err := hasHeader(path)\n"
        "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n"
        "\t\tif !ok {\n"
        "\t\t\tbad = append(bad, strutil.Sanitize(path))\n"
        "\t\t}\n"
        "\t\treturn nil\n"
        "\t})\n"
        "\tif err != nil {\n"
        '\t\tfmt.Fprintln(os.Stderr, "walk:", err)\n'
        "\t\tos.Exit(2)\n"
        "\t}\n"
        "\tfor _, path := range bad {\n"
        "\t\tfmt.Println(path)\n"
        "\t}\n"
        "\tif len(bad) > 0 && !*fix {\n\t\tos.Exit(1)\n\t}\n"
        "}\n\n"
        "func hasHeader(path string) (bool, error) {\n"
        "\tf, err := os.Open(path)\n"
        "\tif err != nil {\n\t\treturn false, err\n\t}\n"
        "\tdefer f.Close()\n"
        "\tscanner := bufio.NewScanner(f)\n"
        "\tfor i := 0; i < 5 && scanner.Scan(); i++ {\n"
        "\t\tif strings.Contains(scanner.Text(), header) {\n\t\t\treturn true, nil\n\t\t}\n"
        "\t}\n"
        "\treturn false, scanner.Err()\n"
        "}\n"
    )
