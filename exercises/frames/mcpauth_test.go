package frames

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPAuthMistakes checks frames-mcp-auth against each classic
// mistake recorded beside fail.jsonl (the console's templates replayed,
// which never step up): each stops at its step, and the step's detail
// names the mistake, in both languages.
func TestMCPAuthMistakes(t *testing.T) {
	for _, tt := range []struct {
		file   string
		failAt int
		saysEN string // a part of the step's English detail
		saysRU string // and of its Russian one
	}{
		{"fail.jsonl", 8, `The 403 named scope="mcp:tools deploy:production"`, `403 назвал scope="mcp:tools deploy:production"`},
		{"fail-query-token.jsonl", 6, "carried the token in its query string", "передал токен в строке запроса"},
		{"fail-no-resource.jsonl", 4, "The authorization request had no resource parameter", "Запрос авторизации не содержит параметра resource"},
		{"fail-plain-pkce.jsonl", 4, "code_challenge_method=plain", "code_challenge_method=plain: тогда challenge"},
		{"fail-guessed.jsonl", 1, "before its metadata was read: guessed addresses", "адреса угаданы"},
		{"fail-token-loop.jsonl", 6, "the loop a client must not fall into", "клиент не должен попадать в эту петлю"},
		{"fail-scope-too-broad.jsonl", 7, "your token already carries deploy:production", "у вашего токена уже есть deploy:production"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			r, err := Check("frames-mcp-auth", readTranscript(t, filepath.Join("testdata", "frames-mcp-auth", tt.file)))
			if err != nil {
				t.Fatal(err)
			}
			got := firstNotDone(r)
			if got != tt.failAt || r.Passed {
				t.Fatalf("passed %v, first step not done %d; want %d\n%s", r.Passed, got, tt.failAt, describe(r))
			}
			d := r.Steps[got].Detail
			if !strings.Contains(d.EN, tt.saysEN) || !strings.Contains(d.RU, tt.saysRU) {
				t.Errorf("step %d's detail does not say %q / %q:\n%s", got, tt.saysEN, tt.saysRU, describe(r))
			}
			checkText(t, r)
			t.Logf("%s:\n%s", tt.file, describe(r))
		})
	}
}
