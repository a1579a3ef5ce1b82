package grade

// fixParseErrorCases are the fix-parse-error programs TestGolden grades.
func fixParseErrorCases() []gradeCase {
	return []gradeCase{
		{"fix-parse-error", "solution", "../../solutions/fix-parse-error", "", ""},
		{"fix-parse-error", "starter", "../fix-parse-error", "answers a line that is not JSON", HintSkippedLine},
		{"fix-parse-error", "omits-id", "", "answers a line that is not JSON", hintParseNullID},
	}
}
