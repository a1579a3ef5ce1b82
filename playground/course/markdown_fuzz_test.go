package course

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/chapters"
)

// TestMarkdownLimits renders documents past each limit: every one is an
// error that names what is wrong and where, and one just within them
// renders.
func TestMarkdownLimits(t *testing.T) {
	deep := func(marker string, n int) string { return strings.Repeat(marker, n) + "x\n" }
	for _, tt := range []struct {
		name, src string
		want      string // in the error; "" for none
	}{
		{"too big", strings.Repeat("word ", maxSource/5+1), "at most 262144 are rendered"},
		{"long line", "# Title\n\n" + strings.Repeat("a", maxLine+1) + "\n", "line 3 is 16385 bytes long"},
		{"100,000 nested quotes", "text\n" + deep(">", 100000), "line 2 is 100001 bytes long"},
		{"nested quotes", deep(">", maxNesting+1), "line 1 opens 33 nested"},
		{"nested quotes with spaces", deep("> ", maxNesting+1), "line 1 opens 33 nested quotes and list items; at most 32"},
		{"nested lists", deep("- ", maxNesting+1), "line 1 opens 33 nested"},
		{"nested ordered lists", deep("1. ", maxNesting+1), "line 1 opens 33 nested"},
		{"mixed", deep("> * 2) + ", 9), "line 1 opens 36 nested"},
		{"as deep as allowed", deep("> - ", maxNesting/2), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewMarkdown().Render([]byte(tt.src), English)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("render: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("render = %v, want an error with %q", err, tt.want)
			}
		})
	}
}

// FuzzMarkdown renders anything as a lesson, starting from the real
// lessons in both languages: rendering never panics, a document past the
// limits is refused, and every frame it keeps can be sent (a known
// target, something to send).
func FuzzMarkdown(f *testing.F) {
	lessons, err := fs.Glob(chapters.FS, "*/*.md")
	if err != nil || len(lessons) == 0 {
		f.Fatalf("no lessons to start from: %v", err)
	}
	for _, name := range lessons {
		b, err := fs.ReadFile(chapters.FS, name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
	}
	f.Add([]byte("```frame mcp-stdio\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n```\n\n```reply\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n```\n"), true)
	f.Add([]byte("```sequence\nclient -> server: initialize\nserver --> client: result\n```\n"), true)
	f.Add([]byte("> - 1. > x\n"), false)

	md := NewMarkdown()
	f.Fuzz(func(t *testing.T, src []byte, russian bool) {
		l := English
		if russian {
			l = Russian
		}
		out, err := md.Render(src, l)
		if err != nil {
			return
		}
		if len(src) > maxSource {
			t.Fatalf("a document of %d bytes was rendered", len(src))
		}
		for _, fr := range out.Frames {
			if !slices.Contains(frameTargets(), fr.Target) || strings.TrimSpace(fr.Content) == "" {
				t.Errorf("a frame that cannot be sent: %+v", fr)
			}
		}
	})
}
