package grade

// fixIsErrorCases are the fix-is-error programs TestGolden grades.
func fixIsErrorCases() []gradeCase {
	return []gradeCase{
		{"fix-is-error", "solution", "../../solutions/fix-is-error", "", ""},
		{"fix-is-error", "starter", "../fix-is-error", "reports a tool error", hintFixIsError},
		{"fix-is-error", "top-level-content", "", "prints the tool's text", hintFixResultContent},
	}
}
