package tap

import "strings"

// diffContext is how many unchanged lines a diff shows around a change.
const diffContext = 2

// DiffLines returns a line diff of want and got: "- " lines only in
// want, "+ " lines only in got, a few unchanged lines around each
// change, "..." for the rest. It returns "" when they are equal. It is
// for messages a screen long (pretty-printed JSON), not for big files:
// its cost is the product of the two lengths.
func DiffLines(want, got string) string {
	if want == got {
		return ""
	}
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	// lcs[i][j]: the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		mark byte
		text string
	}
	var lines []line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			lines = append(lines, line{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			lines = append(lines, line{'-', a[i]})
			i++
		default:
			lines = append(lines, line{'+', b[j]})
			j++
		}
	}
	var out strings.Builder
	skipped := false
	for k, l := range lines {
		near := false
		for d := max(0, k-diffContext); d <= min(len(lines)-1, k+diffContext); d++ {
			near = near || lines[d].mark != ' '
		}
		if !near {
			if !skipped {
				out.WriteString("  ...\n")
			}
			skipped = true
			continue
		}
		skipped = false
		out.WriteByte(l.mark)
		out.WriteByte(' ')
		out.WriteString(l.text)
		out.WriteByte('\n')
	}
	return out.String()
}
